/**
 * The Stripe test server's card authorisations (`capture_method: 'manual'`), captures, refunds
 * and the lists reconciliation reads, in Stripe's documented shapes. `pm_card_radarBlock` (and a
 * card ending 0019, Stripe's 4100 0000 0000 0019) is blocked as Stripe's risk check blocks it.
 */
type Json = Record<string, unknown>;

export interface HoldServer {
  objects: Map<string, Json>;
  newId(prefix: string): string;
  now(): number;
  fixture(name: 'refund' | 'payment_intent' | 'payment_method'): Json;
  error(status: number, type: string, message: string, code?: string): [number, Json];
}

const list = (data: Json[], url: string): Json => ({ object: 'list', data, has_more: false, url });

function blocked(s: HoldServer, paymentMethod: string | undefined): boolean {
  if (paymentMethod === 'pm_card_radarBlock') return true;
  const method = paymentMethod ? s.objects.get(paymentMethod) : undefined;
  return (method?.card as Json | undefined)?.last4 === '0019';
}

/**
 * Stripe.js confirming a gift's Elements authorisation (its metadata's purpose `card_hold`): as a
 * confirm, but the card is only authorised (requires_capture). 4000…0002 is declined, 4100…0019
 * blocked as fraudulent.
 */
function confirmHold(s: HoldServer, pi: Json, params: Record<string, string>): [number, Json] {
  if (pi.status !== 'requires_payment_method' && pi.status !== 'requires_confirmation')
    return s.error(
      400,
      'invalid_request_error',
      `This PaymentIntent's status is ${pi.status as string}.`,
      'payment_intent_unexpected_state',
    );
  const number = (params['payment_method_data[card][number]'] ?? '').replace(/\D/g, '');
  const fraud = params.payment_method === 'pm_card_radarBlock' || number === '4100000000000019';
  if (fraud || params.payment_method === 'pm_card_chargeDeclined' || number === '4000000000000002') {
    const error = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: fraud ? 'fraudulent' : 'generic_decline',
      message: 'Your card was declined.',
    };
    Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error });
    return [402, { error: { ...error, payment_intent: pi } }];
  }
  const method: Json = {
    ...s.fixture('payment_method'),
    id: s.newId('pm'),
    customer: pi.setup_future_usage ? pi.customer : null,
    created: s.now(),
  };
  method.card = { ...(method.card as Json), last4: number ? number.slice(-4) : '4242' };
  s.objects.set(method.id as string, method);
  Object.assign(pi, {
    status: 'requires_capture',
    capture_method: 'manual',
    payment_method: method.id,
    last_payment_error: null,
    amount_capturable: pi.amount,
  });
  return [200, pi];
}

/** Stripe's answer to a hold's call, or null when the request is not one of them. */
export function holdRoute(s: HoldServer, method: string, path: string, params: Record<string, string>): [number, Json] | null {
  const [, resource, id, sub] = path.split('/').filter(Boolean);
  if (resource === 'payment_intents' && method === 'POST' && !id && params.confirm === 'true' && params.capture_method === 'manual') {
    if (blocked(s, params.payment_method)) {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'fraudulent', message: 'Your card was declined.' };
      return [402, { error }];
    }
    if (params.payment_method === 'pm_card_chargeDeclined')
      return [
        402,
        { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
      ];
    const amount = Number(params.amount);
    const pi: Json = {
      ...s.fixture('payment_intent'),
      id: s.newId('pi'),
      amount,
      amount_capturable: amount,
      amount_received: 0,
      currency: params.currency ?? 'usd',
      customer: params.customer ?? null,
      payment_method: params.payment_method ?? null,
      capture_method: 'manual',
      status: 'requires_capture',
      created: s.now(),
      metadata: Object.fromEntries(
        Object.entries(params)
          .filter(([k]) => k.startsWith('metadata['))
          .map(([k, v]) => [k.slice(9, -1), v]),
      ),
    };
    s.objects.set(pi.id as string, pi);
    return [200, pi];
  }
  const found = id ? s.objects.get(id) : undefined;
  if (
    resource === 'payment_intents' &&
    method === 'POST' &&
    found &&
    sub === 'confirm' &&
    (found.metadata as Json | null)?.purpose === 'card_hold'
  )
    return confirmHold(s, found, params);
  if (resource === 'payment_intents' && method === 'POST' && id && sub === 'capture') {
    const pi = s.objects.get(id);
    if (!pi) return s.error(404, 'invalid_request_error', `No such payment_intent: '${id}'`, 'resource_missing');
    if (pi.status !== 'requires_capture')
      return s.error(
        400,
        'invalid_request_error',
        `This PaymentIntent could not be captured because it has a status of ${pi.status as string}.`,
        'payment_intent_unexpected_state',
      );
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, amount_capturable: 0 });
    return [200, pi];
  }
  if (resource === 'payment_intents' && method === 'GET' && !id) {
    const since = Number(params['created[gte]'] ?? 0);
    const data = [...s.objects.values()].filter((o) => o.object === 'payment_intent' && Number(o.created ?? 0) >= since);
    return [200, list(data, '/v1/payment_intents')];
  }
  if (resource === 'refunds' && method === 'POST' && !id) {
    const pi = s.objects.get(params.payment_intent ?? '');
    if (!pi || pi.status !== 'succeeded')
      return s.error(400, 'invalid_request_error', 'This PaymentIntent has no charge to refund.', 'charge_not_refundable');
    const refund = { ...s.fixture('refund'), id: s.newId('re'), amount: pi.amount, payment_intent: pi.id, charge: null, created: s.now() };
    s.objects.set(refund.id as string, refund);
    return [200, refund];
  }
  if (resource === 'refunds' && method === 'GET' && !id) {
    const since = Number(params['created[gte]'] ?? 0);
    const data = [...s.objects.values()].filter((o) => o.object === 'refund' && Number(o.created ?? 0) >= since);
    return [200, list(data, '/v1/refunds')];
  }
  return null;
}
