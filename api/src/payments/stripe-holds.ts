/**
 * Card authorisations with Stripe: a PaymentIntent with `capture_method: 'manual'` confirmed off
 * session with the saved card (requires_capture), captured once the gift lands, cancelled when it
 * does not; refunds, and the lists reconciliation reads.
 */
import type Stripe from 'stripe';
import { badRequest } from '../errors.js';
import type { CardChargeRequest, CardHold, ProviderCharge } from './provider.js';
import { callStripe } from './stripe-client.js';

const HOLD_STATUSES: Record<string, CardHold['status']> = {
  requires_capture: 'requires_capture',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

function holdOf(intent: Stripe.PaymentIntent, fingerprint: string | null = null): CardHold {
  return { reference: intent.id, status: HOLD_STATUSES[intent.status] ?? 'canceled', amountCents: intent.amount, fingerprint };
}

const WALLET_PURPOSES = new Set(['deposit', 'card_deposit', 'card_hold']);

export class StripeHolds {
  constructor(
    private readonly stripe: Stripe,
    /** The user's Customer and saved card, or a refusal when there is none. */
    private readonly savedCardOf: (userId: string) => Promise<{ customerId: string; paymentMethodId: string }>,
  ) {}

  /** Stripe's fingerprint of the card, or null when Stripe does not describe it (a test payment method's alias). */
  async fingerprint(paymentMethodId: string): Promise<string | null> {
    try {
      const method = await callStripe(() => this.stripe.paymentMethods.retrieve(paymentMethodId));
      return method.card?.fingerprint ?? null;
    } catch {
      return null;
    }
  }

  /** The same key repeats Stripe's first answer (its idempotency), so asking again after a crash authorises nothing new. */
  async authorise(request: CardChargeRequest): Promise<CardHold> {
    if (request.source?.kind === 'card') throw badRequest('Card details go to Stripe, not to Giftlink.', 'invalid_card');
    const { customerId, paymentMethodId } = await this.savedCardOf(request.userId);
    const intent = await callStripe(() =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          customer: customerId,
          payment_method: paymentMethodId,
          capture_method: 'manual',
          confirm: true,
          off_session: true,
          description: 'Giftlink gift paid by card',
          metadata: { userId: request.userId, purpose: 'card_hold' },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return holdOf(intent, await this.fingerprint(paymentMethodId));
  }

  async capture(reference: string, idempotencyKey: string): Promise<CardHold> {
    const current = await callStripe(() => this.stripe.paymentIntents.retrieve(reference));
    if (current.status !== 'requires_capture') return holdOf(current);
    return holdOf(await callStripe(() => this.stripe.paymentIntents.capture(reference, {}, { idempotencyKey })));
  }

  async cancel(reference: string): Promise<CardHold> {
    const current = await callStripe(() => this.stripe.paymentIntents.retrieve(reference));
    if (current.status !== 'requires_capture') return holdOf(current);
    return holdOf(await callStripe(() => this.stripe.paymentIntents.cancel(reference, { cancellation_reason: 'abandoned' })));
  }

  async refund(reference: string, idempotencyKey: string): Promise<void> {
    await callStripe(() => this.stripe.refunds.create({ payment_intent: reference }, { idempotencyKey }));
  }

  /** Succeeded PaymentIntents since `since`, those refunded marked so (Stripe's list endpoints, every page). */
  async list(since: Date): Promise<ProviderCharge[]> {
    const created = { gte: Math.floor(since.getTime() / 1000) };
    const refunded = new Set<string>();
    for await (const refund of this.stripe.refunds.list({ created, limit: 100 }))
      if (refund.payment_intent) refunded.add(typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent.id);
    const out: ProviderCharge[] = [];
    for await (const intent of this.stripe.paymentIntents.list({ created, limit: 100 })) {
      // A subscription's invoice payments are the subscription's, never the wallet's.
      if (!WALLET_PURPOSES.has(intent.metadata?.purpose ?? '')) continue;
      const status = refunded.has(intent.id) ? 'refunded' : intent.status === 'succeeded' ? 'succeeded' : 'other';
      out.push({ reference: intent.id, amountCents: intent.amount, status, createdAt: new Date(intent.created * 1000) });
    }
    return out;
  }
}
