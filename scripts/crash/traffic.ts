/**
 * The crash test's users and traffic: accounts with a receive link and sandbox payouts (a few on
 * Stripe's failing test bank account), and concurrent deposits, gives and withdrawals, each with
 * its own Idempotency-Key, until the server is killed.
 */
import crypto from 'node:crypto';
import { SANDBOX_BANK } from '../../api/src/payments/sandbox-connect.js';
import { call, kill9, type Server } from './server.js';

export interface Account {
  id: string;
  token: string;
  username: string;
  linkId: string;
  /** Paid out to Stripe's failing test bank account: every withdrawal fails and its money comes back. */
  failsPayouts: boolean;
}

export type Op =
  | { kind: 'deposit'; user: Account; cents: number }
  | { kind: 'give'; user: Account; to: Account; cents: number }
  | { kind: 'withdrawal'; user: Account; cents: number };

export interface Sent {
  op: Op;
  key: string;
  /** The answer's status; undefined while none came (the crash took it). */
  status?: number;
  /** Whether the last answer was a replay of a stored one (Idempotent-Replayed). */
  replayed?: boolean;
  /** A refusal's error code. */
  error?: string;
}

/** Every `failEvery`-th user is paid out to the failing test account. */
export const failsPayouts = (i: number, failEvery: number) => i % failEvery === failEvery - 1;

/** Users through the API: the printed invite, then the first user's invites; each with a receive link and payouts set up. */
export async function setUp(server: Server, users: number, failEvery: number): Promise<Account[]> {
  // Printed once its invite is stored, which may be a moment after the server answers /healthz.
  const printed = () => /\/invite\/([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
  for (let i = 0; i < 100 && !printed(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const code = printed();
  if (!code) throw new Error(`no invite printed:\n${server.output()}`);
  const accounts: Account[] = [];
  let codes = [code];
  for (let i = 0; i < users; i++) {
    const username = `crash${i}`;
    const reg = await call<{ token: string; user: { _id: string } }>(server, 'POST', '/api/auth/register', undefined, {
      username,
      email: `${username}@example.com`,
      password: 'secret-pass',
      dateOfBirth: '1990-01-01',
      inviteCode: codes.shift(),
    });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    const { token } = reg.body;
    if (i === 0) {
      const invites = await call<{ code: string; status: string }[]>(server, 'GET', `/invites/${reg.body.user._id}`, token);
      codes = invites.body.filter((inv) => inv.status === 'available').map((inv) => inv.code);
    }
    const link = await call<{ _id?: string; link?: { _id: string } }>(server, 'POST', '/links/create', token, {
      details: { giveorreceive: 'receive', type: 'currency', amount: 50_000, initialQuantity: 1 },
    });
    const linkId = link.body._id ?? link.body.link?._id;
    if (link.status >= 300 || !linkId) throw new Error(`link for ${username}: ${link.status} ${JSON.stringify(link.body)}`);
    const fails = failsPayouts(i, failEvery);
    const bank = { routingNumber: SANDBOX_BANK.routing, accountNumber: fails ? SANDBOX_BANK.fails : SANDBOX_BANK.pays };
    const payouts = await call<{ status: string }>(server, 'POST', '/api/payouts/sandbox/complete', token, bank);
    if (payouts.status !== 200 || payouts.body.status !== 'ready')
      throw new Error(`payouts for ${username}: ${payouts.status} ${JSON.stringify(payouts.body)}`);
    accounts.push({ id: reg.body.user._id, token, username, linkId, failsPayouts: fails });
  }
  return accounts;
}

export function send(server: Server, s: Sent): Promise<void> {
  const { op } = s;
  const request =
    op.kind === 'give'
      ? call(server, 'POST', '/statuses/api/gives', op.user.token, { postId: op.to.linkId, amount: op.cents / 100 }, s.key)
      : call(
          server,
          'POST',
          op.kind === 'deposit' ? '/api/billing-settings-deposit' : '/api/billing-settings-withdrawal',
          op.user.token,
          { userId: op.user.id, balance: op.cents / 100 },
          s.key,
        );
  return request.then(
    (res) => {
      s.status = res.status;
      s.replayed = res.replayed !== null;
      s.error = res.status >= 300 ? String((res.body as { error?: unknown } | null)?.error) : undefined;
    },
    () => undefined, // no answer: the connection died with the server
  );
}

/** A first deposit for each user, acknowledged before the traffic, so withdrawals have money to take. */
export async function fund(server: Server, accounts: Account[], cents: number, sent: Sent[]): Promise<void> {
  for (const user of accounts) {
    const s: Sent = { op: { kind: 'deposit', user, cents }, key: crypto.randomUUID() };
    sent.push(s);
    await send(server, s);
    if (s.status !== 200) throw new Error(`funding ${user.username}: ${s.status} ${s.error}`);
  }
}

/** Concurrent traffic until the server is killed: `workers` loops of random deposits, gives and withdrawals. */
export async function traffic(server: Server, accounts: Account[], sent: Sent[], workers: number, killAfterMs: number): Promise<void> {
  const state = { killed: false };
  const pick = () => accounts[crypto.randomInt(accounts.length)];
  const worker = async () => {
    while (!state.killed) {
      const user = pick();
      let to = pick();
      while (to === user) to = pick();
      const cents = 100 * (1 + crypto.randomInt(5));
      const roll = crypto.randomInt(10);
      const op: Op =
        roll < 3 ? { kind: 'give', user, to, cents } : roll < 6 ? { kind: 'withdrawal', user, cents } : { kind: 'deposit', user, cents };
      const s: Sent = { op, key: crypto.randomUUID() };
      sent.push(s);
      await send(server, s);
    }
  };
  const running = Array.from({ length: workers }, worker);
  await new Promise((r) => setTimeout(r, killAfterMs));
  state.killed = true; // no new requests: the ones in flight now are the ones the crash takes
  await kill9(server);
  await Promise.all(running);
}

/** Each user's balance in cents as the acknowledged requests say it must be. */
export function expectedBalances(accounts: Account[], acked: Sent[]): Map<string, number> {
  const expected = new Map(accounts.map((a) => [a.id, 0]));
  const add = (id: string, cents: number) => expected.set(id, expected.get(id)! + cents);
  for (const { op } of acked) {
    add(op.user.id, op.kind === 'deposit' ? op.cents : -op.cents);
    if (op.kind === 'give') add(op.to.id, op.cents);
  }
  return expected;
}
