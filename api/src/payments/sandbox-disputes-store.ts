import type { Database } from '../db/index.js';
import { SandboxObjectEntity } from './entity.js';

/** The sandbox's charges with the disputed test card (sandbox.ts): which are due to be disputed, and marking them done. */

export interface DueSandboxDispute {
  chargeId: string;
  amountCents: number;
}

/** Charges of the disputed test card whose dispute is due at `now` and not yet made. */
export async function dueSandboxDisputes(db: Database, now: Date): Promise<DueSandboxDispute[]> {
  const rows = await db.manager
    .createQueryBuilder(SandboxObjectEntity, 'o')
    .where("o.kind = 'charge' AND o.data LIKE :due AND o.data NOT LIKE :done", { due: '%"disputeAt"%', done: '%"disputed":true%' })
    .getMany();
  return rows
    .map((row) => JSON.parse(row.data) as { id: string; amountCents: number; outcome: string; disputeAt: string })
    .filter((charge) => charge.outcome === 'succeeded' && Date.parse(charge.disputeAt) <= now.getTime())
    .map((charge) => ({ chargeId: charge.id, amountCents: charge.amountCents }));
}

/** Records that the sandbox disputed a charge, so it is not disputed again. */
export async function markSandboxDisputed(db: Database, chargeId: string): Promise<void> {
  await db.transaction(async (em) => {
    const row = await em.findOneBy(SandboxObjectEntity, { id: chargeId, kind: 'charge' });
    if (row) await em.update(SandboxObjectEntity, { id: chargeId }, { data: JSON.stringify({ ...JSON.parse(row.data), disputed: true }) });
  });
}
