import crypto from 'node:crypto';
import { In } from 'typeorm';
import { SUBSCRIPTION_PRICE_CENTS } from '../../contract/limits.js';
import type { Database } from '../db/index.js';
import { rowLock } from '../db/row-lock.js';
import { badRequest, isUniqueViolation } from '../errors.js';
import { SandboxObjectEntity, type SandboxObject } from './entity.js';
import { UserEntity } from '../users/entity.js';
import { SandboxHolds, sandboxFingerprint } from './sandbox-holds.js';
import { SANDBOX_CARDS, SANDBOX_DISPUTE_AFTER_MS, cardOutcome, refusalOf } from './sandbox-cards.js';
import { listSandboxTransfers, sandboxPayout } from './sandbox-transfers.js';
import type { Data, SandboxChargeData, SandboxCustomerData, SandboxSubscriptionData } from './sandbox-objects.js';
import {
  SUBSCRIPTION_PERIOD_MS as WEEK_MS,
  cardNotCharged,
  noSavedCard,
  paymentDeclined,
  type PayoutRequest,
  type CardChargeRequest,
  type CardHold,
  type CardPayment,
  type CardSource,
  type ProviderCharge,
  type ProviderTransfer,
  type PaymentRequest,
  type PaymentResult,
  type SavedCard,
  type PaymentsProvider,
  type ProviderCustomer,
  type ProviderPaymentIntentState,
  type ProviderSubscriptionState,
  type StartedSubscription,
} from './provider.js';

/**
 * The embedded, offline payments provider (PAYMENTS=sandbox, test mode): Stripe's shapes and
 * Stripe's documented test cards, with its customers, subscriptions and payment intents kept in
 * `sandbox_payment_objects` so every API process sees the same sandbox. The page confirms the
 * first payment through `confirm` (POST /subscriptions/sandbox/confirm) in place of Stripe
 * Elements; the card number is checked and forgotten, never stored.
 */

/**
 * Sandbox amounts that fail, like a test-mode card processor's test cards: $4,000.02 is
 * declined (as Stripe's 4000 0000 0000 0002 card) and a $4,000.02 payout fails.
 */
export const SANDBOX_FAILING_CENTS = 400_002;

export { SANDBOX_DISPUTE_AFTER_MS } from './sandbox-cards.js';

const elementsNotHere = () => badRequest('Test mode takes the card in its own form.', 'invalid_card');

const sandboxReference = (prefix: string, request: PaymentRequest): string =>
  `${prefix}_sandbox_${crypto.createHash('sha256').update(`${prefix}:${request.idempotencyKey}`).digest('hex').slice(0, 24)}`;

const newId = (prefix: string) => `${prefix}_sandbox_${crypto.randomBytes(12).toString('hex')}`;

export class SandboxPayments implements PaymentsProvider {
  readonly name = 'sandbox';

  /** A deposit: instant, succeeds except for SANDBOX_FAILING_CENTS. The reference derives from the idempotency key, so a repeat gets the same one. */
  async charge(request: PaymentRequest): Promise<PaymentResult> {
    if (request.amountCents === SANDBOX_FAILING_CENTS) throw paymentDeclined();
    return { reference: sandboxReference('ch', request) };
  }

  /**
   * A card deposit: the test card's outcome (4242… pays, 4000…0002 is declined, 4000…9995 has
   * insufficient funds), once per idempotency key. A saved card keeps only its outcome and last
   * 4 digits, on the user's sandbox customer (the one subscriptions use).
   */
  async chargeCard(request: CardChargeRequest): Promise<PaymentResult> {
    const earlier = await this.findByKey('charge', request.idempotencyKey);
    if (earlier) return answerCharge(earlier);
    const { source } = request;
    if (!source) throw cardNotCharged();
    let outcome: SandboxChargeData['outcome'];
    if (source.kind === 'saved') {
      const card = (await this.customerOf(request.userId))?.card;
      if (!card) throw noSavedCard();
      outcome = card.pays ? 'succeeded' : 'declined';
    } else {
      outcome = cardOutcome(source.card, this.clock());
    }
    const disputed = source.kind === 'card' && source.card.number.replace(/\D/g, '') === SANDBOX_CARDS.disputed;
    const charge = await this.createOnce('charge', request.idempotencyKey, () => ({
      id: sandboxReference('ch', request),
      amountCents: request.amountCents,
      outcome,
      ...(disputed ? { disputeAt: new Date(this.clock().getTime() + SANDBOX_DISPUTE_AFTER_MS).toISOString() } : {}),
    }));
    if (source.kind === 'card' && source.save && charge.outcome === 'succeeded') {
      await this.saveCard(request.userId, source.card.number);
    }
    return answerCharge(charge);
  }

  private async saveCard(userId: string, number: string): Promise<void> {
    const digits = number.replace(/\D/g, '');
    const customer = await this.customerFor(userId);
    await this.update('customer', customer.id, (c) => ({
      ...c,
      card: { last4: digits.slice(-4), pays: true, fingerprint: sandboxFingerprint(digits) },
    }));
  }

  private readonly holds: SandboxHolds;

  private makeHolds(): SandboxHolds {
    return new SandboxHolds(this.db, this.clock, {
      cardOf: async (userId, source) => {
        if (source.kind === 'card')
          return { outcome: cardOutcome(source.card, this.clock()), fingerprint: sandboxFingerprint(source.card.number) };
        const card = (await this.customerOf(userId))?.card;
        if (!card) throw noSavedCard();
        return { outcome: card.pays ? 'succeeded' : 'declined', fingerprint: card.fingerprint ?? sandboxFingerprint(`saved:${userId}`) };
      },
      refusal: (outcome) => refusalOf(outcome),
    });
  }

  /** An authorisation of the card (requires_capture), once per key; a card saved with it is saved as a charge saves it. */
  async authoriseCard(request: CardChargeRequest): Promise<CardHold> {
    const hold = await this.holds.authorise(request);
    if (request.source?.kind === 'card' && request.source.save) await this.saveCard(request.userId, request.source.card.number);
    return hold;
  }

  captureCard(reference: string): Promise<CardHold> {
    return this.holds.capture(reference);
  }

  cancelCardHold(reference: string): Promise<CardHold> {
    return this.holds.cancel(reference);
  }

  refundCard(reference: string): Promise<void> {
    return this.holds.refund(reference);
  }

  async cardFingerprint(userId: string, source: CardSource): Promise<string | null> {
    if (source.kind === 'card') return sandboxFingerprint(source.card.number);
    const card = (await this.customerOf(userId))?.card;
    return card ? (card.fingerprint ?? sandboxFingerprint(`saved:${userId}`)) : null;
  }

  listCardPayments(since: Date): Promise<ProviderCharge[]> {
    return this.holds.list(since);
  }

  async savedCard(userId: string): Promise<SavedCard | null> {
    const card = (await this.customerOf(userId))?.card;
    return card ? { last4: card.last4 } : null;
  }

  async removeCard(userId: string): Promise<void> {
    const customer = await this.customerOf(userId);
    if (!customer?.card) return;
    await this.update('customer', customer.id, (c) => {
      const next = { ...c };
      delete next.card;
      return next;
    });
  }

  /** Deletes the customer's rows: the email and the card's last 4 digits go with them. */
  async deleteCustomer(userId: string): Promise<void> {
    const user = await this.db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, stripeCustomerId: true } });
    const ids = [user?.stripeCustomerId, (await this.customerOf(userId))?.id].filter((id): id is string => !!id);
    if (ids.length > 0) await this.db.transaction((em) => em.delete(SandboxObjectEntity, { kind: 'customer', id: In(ids) }));
  }

  // The sandbox takes its test card in its own form (chargeCard); Stripe Elements is Stripe's.
  startCardPayment(): Promise<CardPayment> {
    return Promise.reject(elementsNotHere());
  }

  readCardPayment(): Promise<CardPayment> {
    return Promise.reject(elementsNotHere());
  }

  cancelCardPayment(): Promise<CardPayment> {
    return Promise.reject(elementsNotHere());
  }

  /** The user's sandbox customer, keyed as subscriptions make it (`customer-<userId>`). */
  private customerOf(userId: string): Promise<SandboxCustomerData | null> {
    return this.findByKey('customer', customerKey(userId));
  }

  private async customerFor(userId: string): Promise<SandboxCustomerData> {
    const user = await this.db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, email: true } });
    return this.createOnce('customer', customerKey(userId), () => ({ id: newId('cus'), userId, email: user?.email ?? '' }));
  }

  /** A withdrawal (sandbox-transfers.ts): SANDBOX_FAILING_CENTS fails, as Stripe's failing test bank account does. */
  payout(request: PayoutRequest): Promise<PaymentResult> {
    return sandboxPayout(this.db, this.clock, this.payoutDelayMs, request, request.amountCents === SANDBOX_FAILING_CENTS);
  }

  listTransfers(since: Date): Promise<ProviderTransfer[]> {
    return listSandboxTransfers(this.db.manager, since);
  }

  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
    private readonly payoutDelayMs = 0,
  ) {
    this.holds = this.makeHolds();
  }

  /** Creates an object once per idempotency key: a repeat (or a racing twin) answers the first one. */
  private async createOnce<K extends keyof Data>(
    kind: K,
    idempotencyKey: string,
    make: () => Data[K],
    secret: string | null = null,
  ): Promise<Data[K]> {
    const found = await this.findByKey(kind, idempotencyKey);
    if (found) return found;
    const data = make();
    const now = this.clock();
    const row: SandboxObject = {
      id: data.id,
      kind,
      idempotencyKey: `${kind}:${idempotencyKey}`,
      secret,
      data: JSON.stringify(data),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.db.transaction((em) => em.insert(SandboxObjectEntity, row));
      return data;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const winner = await this.findByKey(kind, idempotencyKey);
      if (!winner) throw err;
      return winner;
    }
  }

  private async findByKey<K extends keyof Data>(kind: K, idempotencyKey: string): Promise<Data[K] | null> {
    const row = await this.db.manager.findOneBy(SandboxObjectEntity, { idempotencyKey: `${kind}:${idempotencyKey}` });
    return row ? (JSON.parse(row.data) as Data[K]) : null;
  }

  private async read<K extends keyof Data>(kind: K, id: string): Promise<Data[K] | null> {
    const row = await this.db.manager.findOneBy(SandboxObjectEntity, { id, kind });
    return row ? (JSON.parse(row.data) as Data[K]) : null;
  }

  /** Changes an object in one transaction (read and written there, so two processes agree). */
  private update<K extends keyof Data>(kind: K, id: string, change: (data: Data[K]) => Data[K]): Promise<Data[K] | null> {
    return this.db.transaction(async (em) => {
      const row = await em.findOne(SandboxObjectEntity, { where: { id, kind }, ...rowLock(em) });
      if (!row) return null;
      const next = change(JSON.parse(row.data) as Data[K]);
      await em.update(SandboxObjectEntity, { id }, { data: JSON.stringify(next), updatedAt: this.clock() });
      return next;
    });
  }

  async ensureCustomer(input: {
    userId: string;
    email: string;
    existingCustomerId: string | null;
    idempotencyKey: string;
  }): Promise<ProviderCustomer> {
    if (input.existingCustomerId && (await this.read('customer', input.existingCustomerId))) return { id: input.existingCustomerId };
    const customer = await this.createOnce('customer', input.idempotencyKey, () => ({
      id: newId('cus'),
      userId: input.userId,
      email: input.email,
    }));
    return { id: customer.id };
  }

  async startSubscription(input: { customerId: string; idempotencyKey: string }): Promise<StartedSubscription> {
    const sub = await this.createOnce('subscription', input.idempotencyKey, () => ({
      id: newId('sub'),
      customerId: input.customerId,
      status: 'incomplete',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      cardPays: false,
    }));
    const piId = newId('pi');
    const secret = `${piId}_secret_${crypto.randomBytes(12).toString('hex')}`;
    const intent = await this.createOnce(
      'payment_intent',
      input.idempotencyKey,
      () => ({ id: piId, status: 'requires_payment_method', amountCents: SUBSCRIPTION_PRICE_CENTS, subscriptionId: sub.id }),
      secret,
    );
    const row = await this.db.manager.findOneByOrFail(SandboxObjectEntity, { id: intent.id });
    return { subscriptionId: sub.id, paymentIntentId: intent.id, clientSecret: row.secret ?? '' };
  }

  async getPaymentIntent(paymentIntentId: string): Promise<ProviderPaymentIntentState> {
    const intent = await this.read('payment_intent', paymentIntentId);
    if (!intent) throw badRequest('No such payment.', 'unknown_payment_intent');
    return { ...intent };
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscriptionState> {
    const sub = await this.read('subscription', subscriptionId);
    if (!sub) throw badRequest('No such subscription.', 'unknown_subscription');
    return stateOf(sub);
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<ProviderSubscriptionState> {
    const sub = await this.update('subscription', subscriptionId, (s) => ({ ...s, cancelAtPeriodEnd }));
    if (!sub) throw badRequest('No such subscription.', 'unknown_subscription');
    return stateOf(sub);
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    await this.update('subscription', subscriptionId, (s) => ({ ...s, status: 'canceled', cancelAtPeriodEnd: false }));
  }

  /**
   * The page's card form confirms the first payment (Stripe Elements' confirmCardPayment in test
   * mode): 4242… pays, 4000…0002 is declined, 4000…9995 has insufficient funds; anything else is
   * not a test card. A paid intent makes its subscription active for a week.
   */
  async confirm(input: {
    clientSecret: string;
    cardNumber: string;
    expiry: string;
    cvc: string;
  }): Promise<{ paymentIntentId: string; status: 'succeeded' }> {
    const row = await this.db.manager.findOneBy(SandboxObjectEntity, { secret: input.clientSecret, kind: 'payment_intent' });
    if (!row) throw badRequest('This payment could not be found. Please start again.', 'unknown_payment_intent');
    const outcome = cardOutcome({ number: input.cardNumber, expiry: input.expiry, cvc: input.cvc }, this.clock());
    if (outcome !== 'succeeded') throw refusalOf(outcome);
    const intent = await this.update('payment_intent', row.id, (pi) => ({ ...pi, status: 'succeeded' }));
    if (intent?.subscriptionId) {
      const periodEnd = new Date(this.clock().getTime() + WEEK_MS).toISOString();
      await this.update('subscription', intent.subscriptionId, (s) =>
        s.status === 'incomplete' ? { ...s, status: 'active', currentPeriodEnd: periodEnd, cardPays: true } : s,
      );
    }
    return { paymentIntentId: row.id, status: 'succeeded' };
  }

  /**
   * Charges a renewal to the subscription's card: the period moves on a week from its old end
   * (once per old end, so a repeat changes nothing). False when the card does not pay.
   */
  async chargeRenewal(subscriptionId: string, oldPeriodEnd: Date): Promise<ProviderSubscriptionState | null> {
    let paid = false;
    const sub = await this.update('subscription', subscriptionId, (s) => {
      paid = s.cardPays;
      if (!s.cardPays || s.status !== 'active') return { ...s, status: s.status === 'active' ? 'past_due' : s.status };
      const current = s.currentPeriodEnd ? new Date(s.currentPeriodEnd).getTime() : 0;
      const next = oldPeriodEnd.getTime() + WEEK_MS;
      return current >= next ? s : { ...s, currentPeriodEnd: new Date(next).toISOString() };
    });
    return sub && paid ? stateOf(sub) : null;
  }

  /** Ends a subscription for good (after its canceled period ran out). */
  async end(subscriptionId: string): Promise<void> {
    await this.update('subscription', subscriptionId, (s) => ({ ...s, status: 'canceled' }));
  }
}

function stateOf(sub: SandboxSubscriptionData): ProviderSubscriptionState {
  return {
    subscriptionId: sub.id,
    customerId: sub.customerId,
    status: sub.status,
    currentPeriodEnd: sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd) : new Date(0),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
  };
}

const customerKey = (userId: string) => `customer-${userId}`;

function answerCharge(charge: SandboxChargeData): PaymentResult {
  if (charge.outcome !== 'succeeded') throw refusalOf(charge.outcome);
  return { reference: charge.id };
}
