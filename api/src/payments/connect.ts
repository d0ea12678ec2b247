/**
 * Payouts' side of the provider (Stripe Connect, or the sandbox's stand-in): a connected account per
 * user, the hosted onboarding that fills it in, and reading it back. Called only outside database
 * transactions, as every provider call (provider.ts); creates take an idempotency key.
 */

/** A connected account as the payouts capability stores it: Stripe's fields that decide its status. */
export interface ConnectAccountState {
  accountId: string;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
  /** `requirements.currently_due`: what must be given now. */
  currentlyDue: string[];
  /** `requirements.disabled_reason`, or null. */
  disabledReason: string | null;
  /** The default bank account's last 4 digits, once one is on file. */
  bankLast4: string | null;
}

export interface ConnectPayouts {
  readonly name: 'sandbox' | 'stripe';
  /** Creates the user's connected account; the same key answers the same account. */
  createAccount(input: { userId: string; email: string; idempotencyKey: string }): Promise<ConnectAccountState>;
  /** A one-time link to the hosted onboarding; refresh and return are pages of ours. */
  onboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<string>;
  /** Reads the account now (the return page asks again rather than wait for the webhook). */
  readAccount(accountId: string): Promise<ConnectAccountState>;
  /** A one-time link to where the user changes their bank account once set up (Stripe's Express Dashboard). */
  dashboardLink(accountId: string): Promise<string>;
}

/** A bank payout from a connected account's balance, as its `payout.paid` or `payout.failed` event tells it. */
export interface ConnectPayout {
  accountId: string;
  amountCents: number;
  /** When the payout was made: a payout made before a failed one does not clear it. */
  created: Date;
  /** The provider's `failure_code` and `failure_message`, null while it has not failed. */
  failureCode: string | null;
  failureMessage: string | null;
}

/** The withdrawal's destination: the user's connected account. */
export interface PayoutDestination {
  accountId: string;
}
