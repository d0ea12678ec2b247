/**
 * A small Stripe-shaped API for tests (node:http): it answers the calls the `stripe` SDK makes for
 * the subscription and the wallet with Stripe's own objects (`stripe-fixtures.json`, copied from
 * Stripe's published fixtures; see README.md here), overriding ids and fields per call, and it
 * RECORDS every request (method, path, form-encoded params, Idempotency-Key header). Like Stripe,
 * a repeated Idempotency-Key on a create answers the first response again. Detaching a card and
 * deleting a Customer are stripe-cards.ts's.
 *
 * Point the app at it with STRIPE_API_BASE=server.url (the SDK's host, port and protocol options).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fixtures from './stripe-fixtures.json' with { type: 'json' };
import { connectRoute } from './stripe-connect-server.js';
import { holdRoute } from './stripe-holds.js';
import { cardRoute } from './stripe-cards.js';
import { disputeRoute } from './stripe-disputes.js';

type Json = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  /** Form-encoded body and query string, flat as the SDK sends them (`items[0][price]`, `expand[0]`). */
  params: Record<string, string>;
  idempotencyKey: string | null;
}

export interface StripeTestServer {
  url: string;
  requests: RecordedRequest[];
  /** The objects made so far, by id. */
  objects: Map<string, Json>;
  /** As if the page confirmed the PaymentIntent with Stripe Elements. */
  succeed(paymentIntentId: string): void;
  /** As if the card's bank were still deciding (a PaymentIntent `processing`). */
  process(paymentIntentId: string): void;
  /** Saves a card on the customer (its default payment method). */
  setCustomer(customerId: string, fields: { defaultPaymentMethod?: string }): void;
  /** The next PaymentIntent create is declined as Stripe declines a card (402 card_error). */
  declineNextCharge(): void;
  close(): Promise<void>;
}

const clone = <T>(value: T): T => structuredClone(value);
const DAY = 86_400;

export const fixture = <K extends keyof typeof fixtures>(name: K): Json => clone(fixtures[name]) as unknown as Json;

/** Stripe's error answer. */
function stripeError(status: number, type: string, message: string, code?: string): [number, Json] {
  return [status, { error: { type, message, ...(code ? { code } : {}) } }];
}

/** The params as the SDK sent them (form body for POST, query string for GET). */
function paramsOf(url: URL, body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  for (const [k, v] of new URLSearchParams(body)) out[k] = v;
  return out;
}

const list = (data: Json[], url: string): Json => ({ object: 'list', data, has_more: false, url });

export async function startStripeServer(): Promise<StripeTestServer> {
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, Json>();
  const answered = new Map<string, [number, Json]>();
  let declineNext = false;
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_test${++seq}${crypto.randomBytes(4).toString('hex')}`;
  const now = () => Math.floor(Date.now() / 1000);

  const get = (id: string): Json | undefined => objects.get(id);

  function invoiceFor(sub: Json, pi: Json): Json {
    const invoice = fixture('invoice');
    const id = newId('in');
    const end = now() + 7 * DAY;
    const payment: Json = { ...fixture('invoice_payment'), id: newId('inpay'), invoice: id, amount_requested: 199, currency: 'usd' };
    payment.payment = { type: 'payment_intent', payment_intent: pi.id };
    const line = (invoice.lines as { data: Json[] }).data[0];
    Object.assign(line, { invoice: id, amount: 199, period: { start: now(), end }, subscription: sub.id });
    Object.assign(invoice, {
      id,
      customer: sub.customer,
      status: 'open',
      amount_due: 199,
      total: 199,
      subtotal: 199,
      billing_reason: 'subscription_create',
      period_start: now(),
      period_end: now(),
      confirmation_secret: { client_secret: pi.client_secret, type: 'payment_intent' },
      payments: list([payment], `/v1/invoices/${id}/payments`),
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription: sub.id } },
    });
    objects.set(id, invoice);
    return invoice;
  }

  function createSubscription(params: Record<string, string>): Json {
    const sub = fixture('subscription');
    const id = newId('sub');
    const item = (sub.items as { data: Json[] }).data[0];
    const price = item.price as Json;
    Object.assign(price, {
      id: params['items[0][price]'],
      unit_amount: 199,
      unit_amount_decimal: '199',
      recurring: { interval: 'week', interval_count: 1 },
    });
    Object.assign(item, { id: newId('si'), subscription: id, current_period_start: now(), current_period_end: now() + 7 * DAY });
    Object.assign(sub, {
      id,
      customer: params.customer,
      status: 'incomplete',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: now(),
      payment_settings: { save_default_payment_method: params['payment_settings[save_default_payment_method]'] ?? 'off' },
    });
    const pi: Json = {
      ...fixture('payment_intent'),
      id: newId('pi'),
      amount: 199,
      customer: params.customer,
      status: 'requires_payment_method',
    };
    pi.client_secret = `${pi.id}_secret_${crypto.randomBytes(8).toString('hex')}`;
    objects.set(pi.id as string, pi);
    const invoice = invoiceFor(sub, pi);
    sub.latest_invoice = invoice.id;
    objects.set(id, sub);
    const expand = Object.entries(params)
      .filter(([k]) => k.startsWith('expand['))
      .map(([, v]) => v);
    return expand.some((e) => e.startsWith('latest_invoice')) ? { ...sub, latest_invoice: invoice } : sub;
  }

  const metadataOf = (params: Record<string, string>): Json =>
    Object.fromEntries(
      Object.entries(params)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice(9, -1), v]),
    );

  /** A PaymentIntent the page confirms (Stripe Elements): it waits for a payment method. */
  function createUnconfirmed(params: Record<string, string>): Json {
    const pi: Json = {
      ...fixture('payment_intent'),
      id: newId('pi'),
      amount: Number(params.amount),
      currency: params.currency,
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: metadataOf(params),
      setup_future_usage: params.setup_future_usage ?? null,
      status: 'requires_payment_method',
      last_payment_error: null,
      next_action: null,
      canceled_at: null,
      created: now(),
    };
    pi.client_secret = `${pi.id}_secret_${crypto.randomBytes(8).toString('hex')}`;
    objects.set(pi.id as string, pi);
    return pi;
  }

  /**
   * Confirms with Stripe's test payment methods (`pm_card_visa`, `pm_card_chargeDeclined`) or a
   * test card number (`payment_method_data[card][number]`, as Stripe.js sends it): 4000…0002 is
   * declined (402 card_error, the PaymentIntent back to requires_payment_method), anything else
   * pays. A card paid with setup_future_usage is attached to the PaymentIntent's customer.
   */
  function confirmIntent(pi: Json, params: Record<string, string>): [number, Json] {
    if (pi.status !== 'requires_payment_method' && pi.status !== 'requires_confirmation')
      return stripeError(
        400,
        'invalid_request_error',
        `This PaymentIntent's status is ${pi.status as string}.`,
        'payment_intent_unexpected_state',
      );
    const number = (params['payment_method_data[card][number]'] ?? '').replace(/\D/g, '');
    const declined = params.payment_method === 'pm_card_chargeDeclined' || number === '4000000000000002';
    if (declined) {
      const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error });
      return [402, { error: { ...error, payment_intent: pi } }];
    }
    const method: Json = { ...fixture('payment_method'), id: newId('pm'), customer: null, created: now() };
    method.card = { ...(method.card as Json), last4: number ? number.slice(-4) : '4242' };
    if (pi.setup_future_usage && pi.customer) method.customer = pi.customer;
    objects.set(method.id as string, method);
    Object.assign(pi, { status: 'succeeded', payment_method: method.id, last_payment_error: null, amount_received: pi.amount });
    return [200, pi];
  }

  function route(method: string, path: string, params: Record<string, string>): [number, Json] {
    const connect = connectRoute({ objects, newId, now }, method, path, params);
    if (connect) return connect;
    const parts = path.split('/').filter(Boolean); // ['v1', resource, id?, sub?]
    const [, resource, id, sub] = parts;
    const found = id ? get(id) : undefined;
    const missing = () => stripeError(404, 'invalid_request_error', `No such ${resource}: '${id}'`, 'resource_missing');
    const held = holdRoute({ objects, newId, now, fixture, error: stripeError }, method, path, params);
    if (held) return held;
    const removed = cardRoute({ objects, now, error: stripeError }, method, path);
    if (removed) return removed;

    if (resource === 'customers') {
      if (method === 'POST' && !id) {
        const customer = {
          ...fixture('customer'),
          id: newId('cus'),
          email: params.email ?? null,
          metadata: metadataOf(params),
          invoice_settings: { default_payment_method: null },
        };
        objects.set(customer.id as string, customer);
        return [200, customer];
      }
      if (!found) return missing();
      if (method === 'GET' && sub === 'payment_methods') {
        const cards = [...objects.values()].filter((o) => o.object === 'payment_method' && o.customer === id);
        return [200, list(cards, `/v1/customers/${id}/payment_methods`)];
      }
      if (method === 'GET') return [200, found];
    }
    if (resource === 'subscriptions') {
      if (method === 'POST' && !id) return [200, createSubscription(params)];
      if (!found) return missing();
      if (method === 'POST' && params.cancel_at_period_end) found.cancel_at_period_end = params.cancel_at_period_end === 'true';
      if (method === 'DELETE') Object.assign(found, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
      return [200, found];
    }
    if (resource === 'payment_intents') {
      if (method === 'POST' && !id && params.confirm !== 'true') return [200, createUnconfirmed(params)];
      if (method === 'POST' && found && sub === 'confirm') return confirmIntent(found, params);
      if (method === 'POST' && found && sub === 'cancel') {
        if (found.status === 'succeeded' || found.status === 'canceled')
          return stripeError(
            400,
            'invalid_request_error',
            `This PaymentIntent's status is ${found.status as string}.`,
            'payment_intent_unexpected_state',
          );
        Object.assign(found, { status: 'canceled', canceled_at: now(), cancellation_reason: params.cancellation_reason ?? null });
        return [200, found];
      }
      if (method === 'POST' && !id) {
        if (declineNext) {
          declineNext = false;
          return stripeError(402, 'card_error', 'Your card was declined.', 'card_declined');
        }
        const pi: Json = {
          ...fixture('payment_intent'),
          id: newId('pi'),
          amount: Number(params.amount),
          customer: params.customer,
          status: 'succeeded',
          created: now(),
          metadata: metadataOf(params),
        };
        pi.payment_method = params.payment_method;
        objects.set(pi.id as string, pi);
        return [200, pi];
      }
      return found ? [200, found] : missing();
    }
    if (resource === 'invoice_payments' && method === 'GET') {
      const piId = params['payment[payment_intent]'];
      const data = [...objects.values()]
        .filter((o) => o.object === 'invoice')
        .flatMap((inv) => ((inv.payments as { data: Json[] }).data ?? []).map((p): Json => ({ ...p, invoice: inv })))
        .filter((p) => (p.payment as Json).payment_intent === piId);
      return [200, list(data, '/v1/invoice_payments')];
    }
    if (resource === 'payment_methods' && method === 'GET') return found ? [200, found] : missing();
    if (resource === 'disputes') return disputeRoute(method, id, objects) ?? missing();
    if (resource === 'prices') {
      if (method === 'GET' && !id) {
        const keys = Object.entries(params)
          .filter(([k]) => k.startsWith('lookup_keys['))
          .map(([, v]) => v);
        const data = [...objects.values()].filter((o) => o.object === 'price' && keys.includes(o.lookup_key as string));
        return [200, list(data, '/v1/prices')];
      }
      if (method === 'POST' && !id) {
        const price = {
          ...fixture('price'),
          id: newId('price'),
          product: params.product,
          unit_amount: Number(params.unit_amount),
          unit_amount_decimal: params.unit_amount,
          currency: params.currency,
          lookup_key: params.lookup_key ?? null,
          nickname: params.nickname ?? null,
          recurring: {
            interval: params['recurring[interval]'],
            interval_count: Number(params['recurring[interval_count]'] ?? 1),
            usage_type: 'licensed',
            meter: null,
            trial_period_days: null,
          },
          type: 'recurring',
        };
        objects.set(price.id as string, price);
        return [200, price];
      }
      return found ? [200, found] : missing();
    }
    if (resource === 'products') {
      if (method === 'POST' && !id) {
        const product = {
          ...fixture('product'),
          id: params.id ?? newId('prod'),
          name: params.name,
          description: params.description ?? null,
        };
        objects.set(product.id as string, product);
        return [200, product];
      }
      return found ? [200, found] : missing();
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const params = paramsOf(url, Buffer.concat(chunks).toString('utf8'));
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const method = req.method ?? 'GET';
      requests.push({ method, path: url.pathname, params, idempotencyKey: key });
      const replayKey = key && method === 'POST' ? `${url.pathname} ${key}` : null;
      let answer = replayKey ? answered.get(replayKey) : undefined;
      if (!answer) {
        answer = route(method, url.pathname, params);
        if (replayKey) answered.set(replayKey, answer);
      }
      res.writeHead(answer[0], { 'content-type': 'application/json', 'request-id': `req_${seq}` });
      res.end(JSON.stringify(answer[1]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    objects,
    succeed(paymentIntentId) {
      const pi = objects.get(paymentIntentId);
      if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
      pi.status = 'succeeded';
      for (const o of objects.values()) {
        if (o.object !== 'invoice') continue;
        const pays = (o.payments as { data: Json[] }).data;
        if (!pays.some((p) => (p.payment as Json).payment_intent === paymentIntentId)) continue;
        o.status = 'paid';
        const subId = ((o.parent as Json).subscription_details as Json).subscription as string;
        const sub = objects.get(subId);
        if (sub) sub.status = 'active';
      }
    },
    process(paymentIntentId) {
      const pi = objects.get(paymentIntentId);
      if (!pi) throw new Error(`no payment intent ${paymentIntentId}`);
      pi.status = 'processing';
    },
    setCustomer(customerId, fields) {
      const customer = objects.get(customerId);
      if (!customer) throw new Error(`no customer ${customerId}`);
      if (fields.defaultPaymentMethod) customer.invoice_settings = { default_payment_method: fields.defaultPaymentMethod };
    },
    declineNextCharge() {
      declineNext = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
