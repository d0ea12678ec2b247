/**
 * Stripe Connect (PAYMENTS=stripe): Express accounts (Stripe hosts identity checks and bank
 * details; the platform is liable for losses), Account Links for the hosted onboarding, the
 * account read back, and login links to the Express Dashboard where the user changes their bank.
 * Transfers to the account are the wallet's payout (stripe.ts); reconciliation reads them back here.
 */
import type Stripe from 'stripe';
import type { ConnectAccountState, ConnectPayout, ConnectPayouts } from './connect.js';
import type { ProviderTransfer } from './provider.js';
import { callStripe } from './stripe-client.js';

/** The fields of a Stripe Account that decide its payouts status. */
export function connectAccountState(account: Stripe.Account): ConnectAccountState {
  const banks = account.external_accounts?.data ?? [];
  const bank = banks.find((b) => b.object === 'bank_account' && b.default_for_currency) ?? banks.find((b) => b.object === 'bank_account');
  return {
    accountId: account.id,
    detailsSubmitted: account.details_submitted ?? false,
    payoutsEnabled: account.payouts_enabled ?? false,
    currentlyDue: account.requirements?.currently_due ?? [],
    disabledReason: account.requirements?.disabled_reason ?? null,
    bankLast4: bank?.last4 ?? null,
  };
}

/** A Payout of the connected account `accountId` (the event's `account`) as the payouts capability stores it. */
export function connectPayout(accountId: string, payout: Stripe.Payout): ConnectPayout {
  return {
    accountId,
    amountCents: payout.amount,
    created: new Date(payout.created * 1000),
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
  };
}

export class StripeConnect implements ConnectPayouts {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  async createAccount(input: { userId: string; email: string; idempotencyKey: string }): Promise<ConnectAccountState> {
    const account = await callStripe(() =>
      this.stripe.accounts.create(
        {
          type: 'express',
          country: 'US',
          email: input.email,
          capabilities: { transfers: { requested: true } },
          metadata: { userId: input.userId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return connectAccountState(account);
  }

  async onboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<string> {
    const link = await callStripe(() =>
      this.stripe.accountLinks.create({
        account: input.accountId,
        type: 'account_onboarding',
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
      }),
    );
    return link.url;
  }

  async readAccount(accountId: string): Promise<ConnectAccountState> {
    return connectAccountState(await callStripe(() => this.stripe.accounts.retrieve(accountId)));
  }

  // The Express Dashboard is where an Express account changes its bank: Stripe hosts the form and its checks.
  async dashboardLink(accountId: string): Promise<string> {
    const link = await callStripe(() => this.stripe.accounts.createLoginLink(accountId));
    return link.url;
  }
}

/** The withdrawals' Transfers made since `since` (Stripe's list endpoint, every page); any other Transfer is none of the wallet's. */
export async function listStripeTransfers(stripe: Stripe, since: Date): Promise<ProviderTransfer[]> {
  const out: ProviderTransfer[] = [];
  for await (const transfer of stripe.transfers.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 })) {
    if (transfer.metadata?.purpose !== 'withdrawal') continue;
    const destination = transfer.destination;
    out.push({
      reference: transfer.id,
      amountCents: transfer.amount,
      reversedCents: transfer.reversed ? transfer.amount : transfer.amount_reversed,
      destination: typeof destination === 'string' ? destination : (destination?.id ?? ''),
      idempotencyKey: transfer.metadata.idempotencyKey ?? null,
      createdAt: new Date(transfer.created * 1000),
    });
  }
  return out;
}
