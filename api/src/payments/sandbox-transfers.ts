/**
 * The sandbox's withdrawals: a Transfer to the user's sandbox connected account, kept in
 * `sandbox_payment_objects` once per idempotency key (as Stripe keeps its Transfers), so asking
 * again answers the first one and reconciliation reads them back as it reads Stripe's.
 */
import crypto from 'node:crypto';
import { MoreThanOrEqual, type EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { isUniqueViolation } from '../errors.js';
import { SandboxObjectEntity } from './entity.js';
import { payoutFailed, payoutsNotReady, type PaymentResult, type PayoutRequest, type ProviderTransfer } from './provider.js';
import { SandboxConnect } from './sandbox-connect.js';

interface SandboxTransferData {
  id: string;
  userId: string;
  amountCents: number;
  destination: string;
  idempotencyKey: string;
  /** Cents taken back from the connected account; the sandbox never reverses one itself. */
  reversedCents: number;
}

const keyOf = (idempotencyKey: string) => `transfer:${idempotencyKey}`;

/** The reference a withdrawal's key gets: the same key always the same one. */
const sandboxTransferId = (idempotencyKey: string) =>
  `po_sandbox_${crypto.createHash('sha256').update(`po:${idempotencyKey}`).digest('hex').slice(0, 24)}`;

/** The Transfer made earlier with this key, or null. */
async function findSandboxTransfer(db: Database, idempotencyKey: string): Promise<ProviderTransfer | null> {
  const row = await db.manager.findOneBy(SandboxObjectEntity, { idempotencyKey: keyOf(idempotencyKey) });
  return row ? transferOf(JSON.parse(row.data) as SandboxTransferData, row.createdAt) : null;
}

/** Records a Transfer once per key (a racing twin's insert loses to the first). */
export async function recordSandboxTransfer(
  db: Database,
  now: Date,
  input: { userId: string; amountCents: number; destination: string; idempotencyKey: string },
): Promise<void> {
  const data: SandboxTransferData = { id: sandboxTransferId(input.idempotencyKey), ...input, reversedCents: 0 };
  try {
    await db.transaction((em) =>
      em.insert(SandboxObjectEntity, {
        id: data.id,
        kind: 'transfer',
        idempotencyKey: keyOf(input.idempotencyKey),
        secret: null,
        data: JSON.stringify(data),
        createdAt: now,
        updatedAt: now,
      }),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}

/**
 * A withdrawal: a Transfer to the user's sandbox connected account, once per key; Stripe's failing
 * test bank account fails it, as does `fails`. Made first, then answered after `delayMs`
 * (SANDBOX_PAYOUT_DELAY_MS).
 */
export async function sandboxPayout(
  db: Database,
  clock: () => Date,
  delayMs: number,
  request: PayoutRequest,
  fails: boolean,
): Promise<PaymentResult> {
  if (!request.destination) throw payoutsNotReady();
  const earlier = await findSandboxTransfer(db, request.idempotencyKey);
  if (earlier) return { reference: earlier.reference };
  const refused = fails || (await new SandboxConnect(db, clock).failsPayouts(request.destination.accountId));
  if (!refused) await recordSandboxTransfer(db, clock(), { ...request, destination: request.destination.accountId });
  // A crash in this wait lands where the provider has acted and the ledger does not know yet.
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  if (refused) throw payoutFailed();
  return { reference: sandboxTransferId(request.idempotencyKey) };
}

const transferOf = (data: SandboxTransferData, createdAt: Date): ProviderTransfer => ({
  reference: data.id,
  amountCents: data.amountCents,
  reversedCents: data.reversedCents,
  destination: data.destination,
  idempotencyKey: data.idempotencyKey,
  createdAt,
});

/** The sandbox's Transfers since `since`, as reconciliation reads them (from `em`: the live database or a backup's copy). */
export async function listSandboxTransfers(em: EntityManager, since: Date): Promise<ProviderTransfer[]> {
  const rows = await em.find(SandboxObjectEntity, {
    where: { kind: 'transfer', createdAt: MoreThanOrEqual(since) },
    order: { createdAt: 'ASC' },
  });
  return rows.map((row) => transferOf(JSON.parse(row.data) as SandboxTransferData, row.createdAt));
}
