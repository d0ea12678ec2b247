import crypto from 'node:crypto';
import disputes from './stripe-dispute-fixtures.json' with { type: 'json' };

/** Disputes for the Stripe test server (stripe-server.ts registers `disputeRoute`), from Stripe's own example dispute. */

type Json = Record<string, unknown>;

/** Stripe's dispute of a PaymentIntent (its charge named after it), `status` as Stripe words it. */
export function disputeObject(paymentIntentId: string, amountCents: number, status = 'needs_response', id?: string): Json {
  return {
    ...structuredClone(disputes.dispute),
    id: id ?? `dp_test${crypto.randomBytes(6).toString('hex')}`,
    amount: amountCents,
    payment_intent: paymentIntentId,
    charge: `ch_of_${paymentIntentId}`,
    status,
    created: Math.floor(Date.now() / 1000),
  };
}

/** `GET /v1/disputes/{id}`: a dispute the server made. */
export function disputeRoute(method: string, id: string | undefined, objects: Map<string, Json>): [number, Json] | null {
  const found = id ? objects.get(id) : undefined;
  return method === 'GET' && found?.object === 'dispute' ? [200, found] : null;
}
