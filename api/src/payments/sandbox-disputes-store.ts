import type { Database } from '../db/index.js';
import { SandboxObjectEntity } from './entity.js';

/** The sandbox's payments with the disputed test card (a charge, or a captured authorisation): which are due to be disputed, and marking them done. */

export interface DueSandboxDispute {
  chargeId: string;
  amountCents: number;
}

/** Charges of the disputed test card whose dispute is due at `now` and not yet made. */
export async function dueSandboxDisputes(db: Database, now: Date): Promise<DueSandboxDispute[]> {
  const rows = await db.manager
    .createQueryBuilder(SandboxObjectEntity, 'o')
    .where("o.kind IN ('charge', 'card_hold') AND o.data LIKE :due AND o.data NOT LIKE :done", {
      due: '%"disputeAt"%',
      done: '%"disputed":true%',
    })
    .getMany();
  // A charge that paid, or an authorisation that was captured (a refunded one has nothing left to dispute).
  const paid = (kind: string, data: { outcome?: string; status?: string }) =>
    kind === 'charge' ? data.outcome === 'succeeded' : data.status === 'succeeded';
  return rows
    .map((row) => ({
      kind: row.kind,
      ...(JSON.parse(row.data) as { id: string; amountCents: number; outcome?: string; status?: string; disputeAt: string }),
    }))
    .filter((charge) => paid(charge.kind, charge) && Date.parse(charge.disputeAt) <= now.getTime())
    .map((charge) => ({ chargeId: charge.id, amountCents: charge.amountCents }));
}

/** Records that the sandbox disputed a charge, so it is not disputed again. */
export async function markSandboxDisputed(db: Database, chargeId: string): Promise<void> {
  await db.transaction(async (em) => {
    const row = await em.findOneBy(SandboxObjectEntity, { id: chargeId });
    if (row) await em.update(SandboxObjectEntity, { id: chargeId }, { data: JSON.stringify({ ...JSON.parse(row.data), disputed: true }) });
  });
}
