/**
 * The Stripe test server's removals, in Stripe's documented shapes: `POST
 * /v1/payment_methods/{id}/detach` answers the PaymentMethod with `customer: null` (a Customer
 * whose default it was has none left) and refuses one attached to no one; `DELETE
 * /v1/customers/{id}` answers `{ id, object: 'customer', deleted: true }`, detaches its cards and
 * cancels its subscriptions; the Customer then reads as that stub, and deleting it again is a 404.
 */
type Json = Record<string, unknown>;

export interface CardServer {
  objects: Map<string, Json>;
  now(): number;
  error(status: number, type: string, message: string, code?: string): [number, Json];
}

function detach(s: CardServer, method: Json): [number, Json] {
  const customer = typeof method.customer === 'string' ? s.objects.get(method.customer) : undefined;
  if (!customer)
    return s.error(
      400,
      'invalid_request_error',
      'The payment method you provided is not attached to a customer so detachment is impossible.',
    );
  const settings = customer.invoice_settings as Json | undefined;
  if (settings?.default_payment_method === method.id) customer.invoice_settings = { ...settings, default_payment_method: null };
  method.customer = null;
  return [200, method];
}

function deleteCustomer(s: CardServer, id: string): [number, Json] {
  for (const o of s.objects.values()) {
    if (o.object === 'payment_method' && o.customer === id) o.customer = null;
    if (o.object === 'subscription' && o.customer === id && o.status !== 'canceled')
      Object.assign(o, { status: 'canceled', canceled_at: s.now(), ended_at: s.now() });
  }
  const stub: Json = { id, object: 'customer', deleted: true };
  s.objects.set(id, stub);
  return [200, stub];
}

/** Answers a detach or a Customer's deletion; undefined for any other call. */
export function cardRoute(s: CardServer, method: string, path: string): [number, Json] | undefined {
  const [, resource, id, sub] = path.split('/').filter(Boolean);
  const found = id ? s.objects.get(id) : undefined;
  const missing = (): [number, Json] => s.error(404, 'invalid_request_error', `No such ${resource}: '${id}'`, 'resource_missing');
  if (resource === 'payment_methods' && method === 'POST' && sub === 'detach') return found ? detach(s, found) : missing();
  if (resource === 'customers' && method === 'DELETE' && id && !sub) return found && !found.deleted ? deleteCustomer(s, id) : missing();
  return undefined;
}
