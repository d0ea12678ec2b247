import type { PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import type { DatabaseObserver } from './observer.js';

/**
 * PostgreSQL's transactions, with fewer round trips.
 *
 * On this kind of machine a round trip's cost is mostly its write: it wakes PostgreSQL on the
 * other core (much of node's time under gives: docs/PERFORMANCE.md). The pool's
 * clients run in node-postgres's pipeline mode, which sends a query without waiting for the
 * answers to those before it; here the socket is also held for the rest of the turn of the event
 * loop, so what a transaction sends together goes out in one write:
 *
 * - BEGIN goes out with the work's first statement, not alone.
 *
 * Statements still run one after the other, in the order sent, on the transaction's own
 * connection; PostgreSQL answers each, and a statement that fails fails the transaction, which
 * is then rolled back, as TypeORM's `DataSource.transaction` does. TypeORM's own calls inside the
 * work (`em.insert`, query builders) run on the same connection, inside the transaction.
 */
export async function pgTransaction<T>(
  source: DataSource,
  work: (em: EntityManager) => Promise<T>,
  observer?: Pick<DatabaseObserver, 'commit'>,
): Promise<T> {
  const runner = source.createQueryRunner();
  const client = (await runner.connect()) as PoolClient;
  const state = runner as unknown as TransactionState;
  let begun: Promise<unknown> | undefined;
  // Set when the connection may be left inside a transaction: the pool then discards it.
  let broken: unknown;
  try {
    begun = sendTogether(client, () => control(client, 'BEGIN'));
    // Failing, BEGIN fails the work's first statement too; its own error is thrown below.
    begun.catch(() => undefined);
    state.isTransactionActive = true;
    state.transactionDepth = 1;
    const value = await work(runner.manager);
    await begun;
    try {
      const committing = observer && performance.now();
      await control(client, 'COMMIT');
      if (committing !== undefined) observer?.commit((performance.now() - committing) / 1000);
    } finally {
      state.isTransactionActive = false;
      state.transactionDepth = 0;
    }
    return value;
  } catch (err) {
    if (state.isTransactionActive) {
      await begun?.catch(() => undefined);
      try {
        await control(client, 'ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone or unusable: PostgreSQL rolls the transaction back with it.
        broken = rollbackError;
      }
      state.isTransactionActive = false;
      state.transactionDepth = 0;
    }
    throw err;
  } finally {
    await (runner as unknown as { releasePostgresConnection(err?: unknown): Promise<void> }).releasePostgresConnection(broken);
  }
}

/** BEGIN, COMMIT or ROLLBACK; a failure is TypeORM's QueryFailedError, as every other statement's. */
const control = (client: PoolClient, command: string): Promise<unknown> =>
  client.query(command).catch((err: unknown) => {
    throw new QueryFailedError(command, [], err as Error);
  });

/** The fields of TypeORM's query runner that say a transaction is open (it opens none of its own then). */
interface TransactionState {
  isTransactionActive: boolean;
  transactionDepth: number;
}

/**
 * Holds the client's socket while `send` queues queries, and for the rest of this turn of the
 * event loop, so that they and whatever else the transaction sends meanwhile go out in one write.
 */
function sendTogether<T>(client: PoolClient, send: () => T): T {
  const stream = (client as unknown as { connection: { stream: NodeJS.WritableStream & { cork(): void; uncork(): void } } }).connection
    .stream;
  stream.cork();
  process.nextTick(() => stream.uncork());
  return send();
}
