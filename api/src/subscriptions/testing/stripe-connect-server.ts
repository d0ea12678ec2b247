/**
 * The Connect part of the Stripe test double (stripe-server.ts routes to it first): connected
 * accounts, Account Links, login links and Transfers in Stripe's documented shapes, from Stripe's own
 * objects (`connect-fixtures.json`, `stripe-fixtures.json`), and what tests need to play Stripe's side:
 * finishing an account's onboarding and sending its signed `account.updated`, `payout.paid` and
 * `payout.failed` events.
 */
import crypto from 'node:crypto';
import type Stripe from 'stripe';
import connectFixtures from './connect-fixtures.json' with { type: 'json' };
import stripeFixtures from './stripe-fixtures.json' with { type: 'json' };

type Json = Record<string, unknown>;

/** What the server shares with this file: its objects by id, its id maker and its clock. */
export interface ConnectServerState {
  objects: Map<string, Json>;
  newId(prefix: string): string;
  now(): number;
}

const fixture = (name: 'transfer' | 'event'): Json => structuredClone(stripeFixtures[name]) as unknown as Json;
const connectFixture = <K extends keyof typeof connectFixtures>(name: K): Json => structuredClone(connectFixtures[name]) as unknown as Json;

const invalid = (message: string, param?: string): [number, Json] => [
  400,
  { error: { type: 'invalid_request_error', message, ...(param ? { param, code: 'resource_missing' } : {}) } },
];

const metadataOf = (params: Record<string, string>): Json =>
  Object.fromEntries(
    Object.entries(params)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );

/** A new Express account as Stripe makes it: nothing submitted, everything due, payouts off. */
function createAccount(state: ConnectServerState, params: Record<string, string>): Json {
  const account = connectFixture('account');
  const id = state.newId('acct');
  Object.assign(account, {
    id,
    type: params.type ?? 'express',
    email: params.email ?? null,
    country: params.country ?? 'US',
    created: state.now(),
    metadata: metadataOf(params),
    details_submitted: false,
    charges_enabled: false,
    payouts_enabled: false,
    capabilities: { transfers: 'inactive' },
    external_accounts: { object: 'list', data: [], has_more: false, url: `/v1/accounts/${id}/external_accounts` },
  });
  state.objects.set(id, account);
  return account;
}

/** A single-use link to the account's Express Dashboard: only an Express account that finished onboarding has one. */
function loginLink(state: ConnectServerState, account: Json): [number, Json] {
  if (account.type !== 'express') return invalid('You can only create login links for accounts that use the Express Dashboard.');
  if (!account.details_submitted) return invalid('Cannot create a login link for an account that has not completed onboarding.');
  const link = connectFixture('login_link');
  Object.assign(link, {
    created: state.now(),
    url: `https://connect.stripe.com/express/${account.id as string}/${crypto.randomBytes(6).toString('hex')}`,
  });
  return [200, link];
}

/** Answers a Connect call, or undefined for a path that is not Connect's. */
export function connectRoute(
  state: ConnectServerState,
  method: string,
  path: string,
  params: Record<string, string>,
): [number, Json] | undefined {
  const [, resource, id, sub] = path.split('/').filter(Boolean);
  if (resource === 'accounts') {
    if (method === 'POST' && !id) return [200, createAccount(state, params)];
    const account = id ? state.objects.get(id) : undefined;
    if (!account || account.object !== 'account')
      return [404, { error: { type: 'invalid_request_error', message: `No such account: '${id}'`, code: 'resource_missing' } }];
    if (method === 'POST' && sub === 'login_links') return loginLink(state, account);
    return [200, account];
  }
  if (resource === 'account_links' && method === 'POST') {
    const account = state.objects.get(params.account);
    if (!account || account.object !== 'account') return invalid(`No such account: '${params.account}'`, 'account');
    if (params.type !== 'account_onboarding' && params.type !== 'account_update') return invalid('Invalid type.', 'type');
    if (!params.refresh_url || !params.return_url) return invalid('refresh_url and return_url are required.');
    const link = connectFixture('account_link');
    Object.assign(link, {
      created: state.now(),
      expires_at: state.now() + 300,
      url: `https://connect.stripe.com/setup/e/${params.account}/${crypto.randomBytes(8).toString('hex')}`,
    });
    return [200, link];
  }
  if (resource === 'transfers' && method === 'POST' && !id) {
    const destination = state.objects.get(params.destination);
    if (!destination || destination.object !== 'account') return invalid(`No such destination: '${params.destination}'`, 'destination');
    if (!destination.payouts_enabled)
      return invalid('Your destination account needs to have at least one of the following capabilities enabled: transfers.');
    const transfer: Json = {
      ...fixture('transfer'),
      id: state.newId('tr'),
      amount: Number(params.amount),
      currency: params.currency,
      destination: params.destination,
      metadata: metadataOf(params),
      created: state.now(),
      reversed: false,
    };
    state.objects.set(transfer.id as string, transfer);
    return [200, transfer];
  }
  // Reconciliation lists the Transfers made since a time (`created[gte]`), one page.
  if (resource === 'transfers' && method === 'GET' && !id) {
    const since = Number(params['created[gte]'] ?? 0);
    const data = [...state.objects.values()].filter((o) => o.object === 'transfer' && Number(o.created ?? 0) >= since);
    return [200, { object: 'list', data, has_more: false, url: '/v1/transfers' }];
  }
  return undefined;
}

/** As if the user finished Stripe's hosted onboarding: details in, a bank account on file, payouts on. */
export function onboardAccount(objects: Map<string, Json>, accountId: string, bank = { last4: '6789' }): Json {
  const account = objects.get(accountId);
  if (!account) throw new Error(`no account ${accountId}`);
  const external = {
    ...connectFixture('bank_account'),
    id: `ba_${crypto.randomBytes(6).toString('hex')}`,
    last4: bank.last4,
    account: accountId,
    default_for_currency: true,
  };
  Object.assign(account, {
    details_submitted: true,
    charges_enabled: true,
    payouts_enabled: true,
    capabilities: { transfers: 'active' },
    requirements: { ...(account.requirements as Json), currently_due: [], eventually_due: [], past_due: [], disabled_reason: null },
    external_accounts: { object: 'list', data: [external], has_more: false, url: `/v1/accounts/${accountId}/external_accounts` },
  });
  return account;
}

/** A Connect event on `accountId` around `object`, with its signature as Stripe sends it. */
function signedConnectEvent(
  stripe: Stripe,
  secret: string,
  type: string,
  accountId: unknown,
  object: Json,
  { id = `evt_${crypto.randomBytes(8).toString('hex')}`, created = Math.floor(Date.now() / 1000) } = {},
) {
  const payload = JSON.stringify({ ...fixture('event'), id, created, type, account: accountId, data: { object } });
  return { id, payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** An `account.updated` event around the account as it is now, with its signature as Stripe sends it. */
export function signedAccountUpdated(stripe: Stripe, secret: string, account: Json, event: { id?: string; created?: number } = {}) {
  return signedConnectEvent(stripe, secret, 'account.updated', account.id, account, event);
}

/** What a test says of a bank payout from a connected account's balance: Stripe's `payout` fixture fills the rest. */
export interface TestPayout {
  accountId: string;
  amount: number;
  /** When the payout was made (seconds); now by default. */
  created?: number;
  failureCode?: string | null;
  failureMessage?: string | null;
}

/** A `payout.paid` or `payout.failed` event on the connected account, signed as Stripe sends it. */
export function signedPayoutEvent(
  stripe: Stripe,
  secret: string,
  type: 'payout.paid' | 'payout.failed',
  payout: TestPayout,
  event: { id?: string; created?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  const failed = type === 'payout.failed';
  const object: Json = {
    ...connectFixture('payout'),
    id: `po_${crypto.randomBytes(8).toString('hex')}`,
    amount: payout.amount,
    created: payout.created ?? now,
    arrival_date: (payout.created ?? now) + 2 * 86_400,
    status: failed ? 'failed' : 'paid',
    failure_code: failed ? (payout.failureCode ?? null) : null,
    failure_message: failed ? (payout.failureMessage ?? null) : null,
  };
  return signedConnectEvent(stripe, secret, type, payout.accountId, object, event);
}
