/**
 * The sandbox's card authorisations (Stripe's `capture_method: 'manual'`), refunds and the list
 * reconciliation reads, kept in `sandbox_payment_objects` as the rest of the sandbox is: an
 * authorisation is `requires_capture`, then `succeeded` (captured), `canceled` or `refunded`.
 */
import crypto from 'node:crypto';
import { In, MoreThanOrEqual, type EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { rowLock } from '../db/row-lock.js';
import { badRequest, isUniqueViolation, type AppError } from '../errors.js';
import { SandboxObjectEntity, type SandboxObject } from './entity.js';
import { cardNotCharged, type CardChargeRequest, type CardHold, type CardSource, type ProviderCharge } from './provider.js';
import { SANDBOX_DISPUTE_AFTER_MS, isDisputedTestCard } from './sandbox-cards.js';

export type SandboxCardOutcome = 'succeeded' | 'declined' | 'insufficient_funds' | 'fraudulent';

interface HoldData {
  id: string;
  userId: string;
  amountCents: number;
  status: CardHold['status'] | 'refused';
  outcome: SandboxCardOutcome;
  fingerprint: string;
  /** The disputed test card: disputed a while after its capture (`disputeAt`), as a charge of it is. */
  disputesAfterCapture?: boolean;
  disputeAt?: string;
  disputed?: boolean;
}

/** What the sandbox's other half knows of a card: its outcome and fingerprint, and the error a refusal is. */
export interface SandboxCards {
  cardOf(userId: string, source: CardSource): Promise<{ outcome: SandboxCardOutcome; fingerprint: string }>;
  refusal(outcome: Exclude<SandboxCardOutcome, 'succeeded'>): AppError;
}

/** The sandbox's card fingerprint: a keyed hash of the number, the same card always the same. */
export const sandboxFingerprint = (number: string) =>
  crypto.createHmac('sha256', 'giftlink-sandbox-fingerprint').update(number.replace(/\D/g, '')).digest('hex').slice(0, 16);

const holdOf = (data: HoldData): CardHold => ({
  reference: data.id,
  status: data.status === 'refused' ? 'canceled' : data.status,
  amountCents: data.amountCents,
  fingerprint: data.fingerprint,
});

/** The sandbox's card charges and authorisations since `since`, as reconciliation reads them (from `em`: the live database or a backup's copy). */
export async function listSandboxCharges(em: EntityManager, since: Date): Promise<ProviderCharge[]> {
  const rows = await em.find(SandboxObjectEntity, {
    where: { kind: In(['charge', 'card_hold']), createdAt: MoreThanOrEqual(since) },
    order: { createdAt: 'ASC' },
  });
  return rows.map((row) => {
    const data = JSON.parse(row.data) as { id: string; amountCents: number; outcome?: string; status?: string; refunded?: boolean };
    const taken = row.kind === 'charge' ? data.outcome === 'succeeded' : data.status === 'succeeded' || data.status === 'refunded';
    const refunded = row.kind === 'charge' ? data.refunded === true : data.status === 'refunded';
    return {
      reference: data.id,
      amountCents: data.amountCents,
      status: refunded ? 'refunded' : taken ? 'succeeded' : 'other',
      createdAt: row.createdAt,
    };
  });
}

const unknownHold = () => badRequest('No such payment.', 'unknown_payment_intent');

export class SandboxHolds {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
    private readonly cards: SandboxCards,
  ) {}

  async authorise(request: CardChargeRequest): Promise<CardHold> {
    const key = `card_hold:${request.idempotencyKey}`;
    let row = await this.db.manager.findOneBy(SandboxObjectEntity, { idempotencyKey: key });
    if (!row) {
      if (!request.source) throw cardNotCharged();
      const card = await this.cards.cardOf(request.userId, request.source);
      const id = `pi_sandbox_${crypto.createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
      const data: HoldData = {
        id,
        userId: request.userId,
        amountCents: request.amountCents,
        status: card.outcome === 'succeeded' ? 'requires_capture' : 'refused',
        outcome: card.outcome,
        fingerprint: card.fingerprint,
        ...(isDisputedTestCard(request.source) ? { disputesAfterCapture: true } : {}),
      };
      const now = this.clock();
      const made: SandboxObject = {
        id,
        kind: 'card_hold',
        idempotencyKey: key,
        secret: null,
        data: JSON.stringify(data),
        createdAt: now,
        updatedAt: now,
      };
      try {
        await this.db.transaction((em) => em.insert(SandboxObjectEntity, made));
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      row = await this.db.manager.findOneByOrFail(SandboxObjectEntity, { idempotencyKey: key });
    }
    const data = JSON.parse(row.data) as HoldData;
    if (data.outcome !== 'succeeded') throw this.cards.refusal(data.outcome);
    return holdOf(data);
  }

  async capture(reference: string): Promise<CardHold> {
    const disputeAt = new Date(this.clock().getTime() + SANDBOX_DISPUTE_AFTER_MS).toISOString();
    const data = await this.change(reference, (d) =>
      d.status === 'requires_capture' ? { ...d, status: 'succeeded', ...(d.disputesAfterCapture ? { disputeAt } : {}) } : d,
    );
    if (data.status !== 'succeeded' && data.status !== 'refunded')
      throw badRequest(`This PaymentIntent's status is ${data.status}.`, 'unknown_payment_intent');
    return holdOf(data);
  }

  async cancel(reference: string): Promise<CardHold> {
    return holdOf(await this.change(reference, (d) => (d.status === 'requires_capture' ? { ...d, status: 'canceled' } : d)));
  }

  /** A captured authorisation or a card deposit's charge, given back once. */
  async refund(reference: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const row = await em.findOne(SandboxObjectEntity, { where: { id: reference }, ...rowLock(em) });
      // A plain deposit's sandbox charge keeps no record: there is nothing to give back but its word.
      if (!row) return;
      const data = JSON.parse(row.data) as { status?: string; refunded?: boolean };
      const next =
        row.kind === 'card_hold'
          ? { ...data, status: data.status === 'succeeded' ? 'refunded' : data.status }
          : { ...data, refunded: true };
      await em.update(SandboxObjectEntity, { id: reference }, { data: JSON.stringify(next), updatedAt: this.clock() });
    });
  }

  list(since: Date): Promise<ProviderCharge[]> {
    return listSandboxCharges(this.db.manager, since);
  }

  private async change(reference: string, next: (data: HoldData) => HoldData): Promise<HoldData> {
    const changed = await this.db.transaction(async (em) => {
      const row = await em.findOne(SandboxObjectEntity, { where: { id: reference, kind: 'card_hold' }, ...rowLock(em) });
      if (!row) return null;
      const data = next(JSON.parse(row.data) as HoldData);
      await em.update(SandboxObjectEntity, { id: reference }, { data: JSON.stringify(data), updatedAt: this.clock() });
      return data;
    });
    if (!changed) throw unknownHold();
    return changed;
  }
}
