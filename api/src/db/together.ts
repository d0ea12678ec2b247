/**
 * Waits for every one of `steps` of one transaction, started together (on PostgreSQL their
 * statements go out in one write and run in the order started), then answers their values, or
 * throws the error of the first step that failed. A step that failed only because an earlier
 * statement had already failed the transaction (PostgreSQL's 25P02) gives way to the error that did.
 * Never leaves a step running: the transaction may end as soon as this settles.
 */
export async function together<T extends readonly unknown[]>(...steps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(steps);
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length) throw failures.find((err) => !inFailedTransaction(err)) ?? failures[0];
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

const inFailedTransaction = (err: unknown) => (err as { driverError?: { code?: unknown } } | null)?.driverError?.code === '25P02';
