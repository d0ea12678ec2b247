/**
 * Stripe's Subscription and Invoice objects read as the subscription service settles them, in the
 * API version the SDK pins and in the shapes older webhook endpoint versions still send.
 */
import type Stripe from 'stripe';
import type { ProviderSubscriptionState } from './provider.js';

const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  ref == null ? null : typeof ref === 'string' ? ref : ref.id;

const SUBSCRIPTION_STATUSES = new Set<string>(['incomplete', 'active', 'past_due', 'canceled', 'incomplete_expired', 'unpaid', 'trialing']);

/**
 * A Stripe subscription as the service settles it. The period end is the latest of its items'
 * (this API version), else the top-level field webhooks of older endpoint versions still carry.
 * 'paused' (no invoices are collected) reads as 'unpaid': no benefits until it is resumed.
 */
export function subscriptionState(sub: Stripe.Subscription): ProviderSubscriptionState {
  const ends = sub.items.data.map((item) => item.current_period_end).filter((n): n is number => typeof n === 'number');
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const end = ends.length ? Math.max(...ends) : (legacyEnd ?? sub.created);
  const status = SUBSCRIPTION_STATUSES.has(sub.status) ? (sub.status as ProviderSubscriptionState['status']) : 'unpaid';
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status,
    currentPeriodEnd: new Date(end * 1000),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

/** The subscription an invoice bills, in this API version (`parent.subscription_details`) or older ones (`subscription`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const current = idOf(invoice.parent?.subscription_details?.subscription);
  return current ?? idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** The end of the period an invoice paid for: its lines' latest period end. */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date {
  const ends = invoice.lines.data.map((line) => line.period.end);
  return new Date((ends.length ? Math.max(...ends) : invoice.period_end) * 1000);
}

/** The first invoice's PaymentIntent id: from its payments, else from the client secret (`pi_…_secret_…`). */
export function firstPaymentIntentId(invoice: Stripe.Invoice, clientSecret: string): string | null {
  for (const p of invoice.payments?.data ?? []) {
    const id = idOf(p.payment.payment_intent);
    if (p.payment.type === 'payment_intent' && id) return id;
  }
  const match = /^(pi_[A-Za-z0-9]+)_secret_/.exec(clientSecret);
  return match ? match[1] : null;
}
