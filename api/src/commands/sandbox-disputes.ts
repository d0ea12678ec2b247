import type Stripe from 'stripe';
import type { Deps } from '../deps.js';
import { dueSandboxDisputes, markSandboxDisputed } from '../payments/sandbox-disputes-store.js';
import { handleStripeEvent } from '../subscriptions/webhook.js';
import { settleDispute } from './dispute.js';

/**
 * The sandbox's disputes (PAYMENTS=sandbox): a charge of Stripe's disputed test card, once its
 * moment has come, is disputed through the very path of Stripe's `charge.dispute.created`
 * webhook: the event, recorded once by its id, settled by commands/dispute.ts.
 */
export async function disputeSandboxCharges(deps: Pick<Deps, 'db' | 'clock' | 'realtime'>, now: Date): Promise<number> {
  const due = await dueSandboxDisputes(deps.db, now);
  for (const { chargeId, amountCents } of due) {
    const dispute = {
      id: `dp_${chargeId}`,
      object: 'dispute',
      charge: chargeId,
      payment_intent: null,
      amount: amountCents,
      status: 'needs_response',
    };
    const event = { id: `evt_dispute_${chargeId}`, object: 'event', type: 'charge.dispute.created', data: { object: dispute } };
    await handleStripeEvent(deps, event as unknown as Stripe.Event, { dispute: settleDispute });
    await markSandboxDisputed(deps.db, chargeId);
  }
  return due.length;
}
