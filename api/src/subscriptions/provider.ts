/**
 * The subscription side of the payments provider (issue 12). Two implementations: the sandbox
 * (embedded, offline, Stripe's test card numbers; `sandbox-provider.ts`) and Stripe (the official
 * SDK; `stripe-provider.ts`). The subscription service calls a provider only outside database
 * transactions: it records what it is about to do, calls the provider, then settles in a
 * transaction (or the verified webhook settles it), so a slow or failing provider never holds the
 * database and a crash in between is resolved on restart.
 *
 * Every call that creates something takes an idempotency key: the same key always gets the same
 * object back from the provider.
 */

export interface ProviderCustomer {
  /** `cus_…` at Stripe. */
  id: string;
}

/** What the page needs to confirm the first weekly payment, and the ids to remember. */
export interface StartedSubscription {
  /** `sub_…` at Stripe: created with payment_behavior 'default_incomplete'. */
  subscriptionId: string;
  /** The first invoice's PaymentIntent: `pi_…`. */
  paymentIntentId: string;
  /** The PaymentIntent's client secret, which the page confirms (Stripe Elements or the sandbox form). */
  clientSecret: string;
}

/** The provider's view of a subscription: what the service settles from. */
export interface ProviderSubscriptionState {
  subscriptionId: string;
  customerId: string;
  status: 'incomplete' | 'active' | 'past_due' | 'canceled' | 'incomplete_expired' | 'unpaid' | 'trialing';
  /** End of the current paid period. */
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

export interface ProviderPaymentIntentState {
  id: string;
  status: 'succeeded' | 'processing' | 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'canceled';
  amountCents: number;
  /** The subscription this first payment belongs to, when the provider knows it. */
  subscriptionId: string | null;
}

export interface SubscriptionProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Finds or creates the user's customer (the user's `stripeCustomerId` once made). */
  ensureCustomer(input: {
    userId: string;
    email: string;
    existingCustomerId: string | null;
    idempotencyKey: string;
  }): Promise<ProviderCustomer>;
  /** Creates a weekly subscription whose first invoice waits for the page to confirm its PaymentIntent. */
  startSubscription(input: { customerId: string; idempotencyKey: string }): Promise<StartedSubscription>;
  /** Reads a PaymentIntent: the server never trusts the page to say a payment succeeded. */
  getPaymentIntent(paymentIntentId: string): Promise<ProviderPaymentIntentState>;
  /** Reads a subscription's current state. */
  getSubscription(subscriptionId: string): Promise<ProviderSubscriptionState>;
  /** Cancels at period end (benefits last until then); `resume` undoes it before the end. */
  setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean, idempotencyKey: string): Promise<ProviderSubscriptionState>;
  /**
   * Cancels at once, with no refund: a past-due subscription replaced by a new one must stop at
   * the provider too, or the provider would keep retrying its unpaid invoice and charge for a
   * subscription we no longer track. Cancelling one already canceled changes nothing.
   */
  cancelNow(subscriptionId: string): Promise<void>;
}
