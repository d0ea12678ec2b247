/**
 * Payouts set up once: the user's connected account at the provider (created once, with a key per
 * user), its hosted onboarding, and its status as the provider's account updates leave it. The
 * provider is called outside any transaction (decisions/0009); each write is its own short one.
 */
import type { EntityManager } from 'typeorm';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { ConnectAccountState, ConnectPayout, ConnectPayouts, PayoutDestination } from '../payments/connect.js';
import { payoutsNotReady } from '../payments/provider.js';
import { SandboxConnect } from '../payments/sandbox-connect.js';
import { StripeConnect } from '../payments/stripe-connect.js';
import { requireStripeConfig, stripeClient } from '../payments/stripe-client.js';
import { UserEntity } from '../users/entity.js';
import { PAYOUTS_NOT_SET_UP, PAYOUTS_RESTRICTED } from '../../contract/texts.js';
import type { SandboxBankBody } from '../../contract/payouts.js';
import type { PayoutAccount } from './entity.js';
import { payoutStatusOf } from './state.js';
import { findPayoutAccount, insertPayoutAccount, recordPayoutFailed, recordPayoutPaid, updatePayoutAccount } from './store.js';

export interface PayoutsDeps {
  db: Database;
  connect: ConnectPayouts;
  /** Where the provider sends the user back to (our return and refresh pages). */
  publicUrl: string;
  clock: () => Date;
}

/** The Connect provider PAYMENTS names. */
export function createConnect(config: Pick<Config, 'payments' | 'stripe'>, db: Database, clock: () => Date): ConnectPayouts {
  return config.payments === 'stripe' ? new StripeConnect(stripeClient(requireStripeConfig(config))) : new SandboxConnect(db, clock);
}

export const payoutsRestricted = () => badRequest(PAYOUTS_RESTRICTED, 'payouts_restricted');
const payoutsNotSetUp = () => badRequest(PAYOUTS_NOT_SET_UP, 'payouts_not_set_up');

/** Pages of ours the hosted onboarding returns to: the return page asks again, the refresh page makes a new link. */
export const RETURN_PATH = '/settings/payouts/return';
export const REFRESH_PATH = '/settings/payouts/refresh';

export const payoutAccountOf = (db: Database, userId: string) => findPayoutAccount(db.manager, userId);

/**
 * Stores what the provider said of an account at `asOf`, by its id; false for an account that is
 * none of ours, or when a later state is already stored (events can arrive out of order).
 */
export function applyAccountState(em: EntityManager, state: ConnectAccountState, asOf: Date): Promise<boolean> {
  return updatePayoutAccount(em, state.accountId, {
    status: payoutStatusOf(state),
    requirements: JSON.stringify(state.currentlyDue),
    bankLast4: state.bankLast4,
    updatedAt: asOf,
  });
}

/** The user's connected account, created at the provider the first time (one per user, whatever the retries). */
async function ensureAccount(deps: PayoutsDeps, userId: string): Promise<PayoutAccount> {
  const existing = await findPayoutAccount(deps.db.manager, userId);
  if (existing) return existing;
  const user = await deps.db.manager.findOneOrFail(UserEntity, { where: { id: userId }, select: { id: true, email: true } });
  const state = await deps.connect.createAccount({ userId, email: user.email, idempotencyKey: `payouts-account-${userId}` });
  await deps.db.transaction((em) =>
    insertPayoutAccount(em, {
      userId,
      accountId: state.accountId,
      status: payoutStatusOf(state),
      requirements: JSON.stringify(state.currentlyDue),
      bankLast4: state.bankLast4,
      updatedAt: deps.clock(),
      failedPayoutCents: null,
      failedPayoutCode: null,
      failedPayoutMessage: null,
      failedPayoutCreated: null,
      failedPayoutAt: null,
      payoutEventAt: null,
    }),
  );
  return findPayoutAccount(deps.db.manager, userId).then((row) => row as PayoutAccount);
}

/** The hosted onboarding's address for the user (their account made first if need be). */
export async function startOnboarding(deps: PayoutsDeps, userId: string): Promise<string> {
  const account = await ensureAccount(deps, userId);
  return deps.connect.onboardingLink({
    accountId: account.accountId,
    refreshUrl: `${deps.publicUrl}${REFRESH_PATH}`,
    returnUrl: `${deps.publicUrl}${RETURN_PATH}`,
  });
}

/** Asks the provider again (the return page, before the webhook may have come) and stores the answer. */
export async function refreshPayouts(deps: PayoutsDeps, userId: string): Promise<PayoutAccount | null> {
  const account = await findPayoutAccount(deps.db.manager, userId);
  if (!account) return null;
  const state = await deps.connect.readAccount(account.accountId);
  await deps.db.transaction((em) => applyAccountState(em, state, deps.clock()));
  return findPayoutAccount(deps.db.manager, userId);
}

/**
 * A bank payout failed after its Transfer, Stripe said at `at`: the money waits in the user's Stripe
 * balance and goes out again once the bank is fixed, so the ledger does not move; the account records it.
 */
export function applyPayoutFailed(em: EntityManager, payout: ConnectPayout, at: Date, asOf: Date): Promise<boolean> {
  return recordPayoutFailed(
    em,
    payout.accountId,
    {
      failedPayoutCents: payout.amountCents,
      failedPayoutCode: payout.failureCode?.slice(0, 64) ?? null,
      failedPayoutMessage: payout.failureMessage?.slice(0, 500) ?? null,
      failedPayoutCreated: payout.created,
      failedPayoutAt: at,
    },
    asOf,
  );
}

/** A bank payout was paid: a failure before it is over (the money reached a bank). */
export const applyPayoutPaid = (em: EntityManager, payout: ConnectPayout, asOf: Date): Promise<boolean> =>
  recordPayoutPaid(em, payout.accountId, payout.created, asOf);

/** Whether there is a bank to change: payouts were set up (a failed payout proves it while Stripe asks again). */
const hasBank = (account: PayoutAccount | null): account is PayoutAccount =>
  account !== null && (account.status === 'ready' || account.status === 'restricted' || account.failedPayoutCents !== null);

/** Where the user changes their bank account: Stripe's Express Dashboard, or the sandbox's bank form. */
export async function dashboardLink(deps: PayoutsDeps, userId: string): Promise<string> {
  const account = await findPayoutAccount(deps.db.manager, userId);
  if (!hasBank(account)) throw payoutsNotSetUp();
  return deps.connect.dashboardLink(account.accountId);
}

/** The sandbox's onboarding form (404 with any other provider): Stripe's test bank numbers make the account ready. */
export async function completeSandboxOnboarding(deps: PayoutsDeps, userId: string, bank: SandboxBankBody): Promise<PayoutAccount> {
  const connect = deps.connect;
  if (!(connect instanceof SandboxConnect)) throw notFound();
  const account = await ensureAccount(deps, userId);
  const state = await connect.completeOnboarding(account.accountId, bank);
  await deps.db.transaction((em) => applyAccountState(em, state, deps.clock()));
  return (await findPayoutAccount(deps.db.manager, userId)) as PayoutAccount;
}

/** Where a withdrawal goes, inside its transaction: refused unless the user's payouts are ready. */
export async function requirePayoutsReady(em: EntityManager, userId: string): Promise<PayoutDestination> {
  const account = await findPayoutAccount(em, userId);
  if (account?.status === 'restricted') throw payoutsRestricted();
  if (account?.status !== 'ready') throw payoutsNotReady();
  return { accountId: account.accountId };
}

/** The account a pending withdrawal pays out to, when asked again after a crash. */
export async function payoutDestinationOf(em: EntityManager, userId: string): Promise<PayoutDestination | null> {
  const account = await findPayoutAccount(em, userId);
  return account ? { accountId: account.accountId } : null;
}
