/**
 * The chaos run's money: deposits, gives and link accepts, each with its own Idempotency-Key,
 * from concurrent workers; every request without a final answer is sent again with its key until
 * it has one; then every balance must equal its baseline plus the acknowledged movements.
 */
import crypto from 'node:crypto';
import { call, errorCode, must, type Account } from './http.js';
import { sleep } from './processes.js';

/** Each give link's amount ($1) and uses: accepted by others during the run. */
const GIVE_LINK_CENTS = 100;
const GIVE_LINK_USES = 100;

export interface MoneyAccount extends Account {
  /** The receive link gives go to (receivers), or the give link others accept (givers). */
  role: 'receiver' | 'giver';
  linkId: string;
}

type Op =
  | { kind: 'deposit'; user: MoneyAccount; cents: number }
  | { kind: 'give'; user: MoneyAccount; to: MoneyAccount; cents: number }
  | { kind: 'accept'; user: MoneyAccount; creator: MoneyAccount };

interface Sent {
  op: Op;
  key: string;
  /** The last answer's status: 0 or 5xx while it has no final one. */
  status: number;
  replayed: boolean;
  error?: string;
}

/** No final answer yet: none came, the node or a service failed (5xx), or the key is still settling. */
const open = (s: Sent) => s.status === 0 || s.status >= 500 || s.error === 'idempotency_key_in_progress';

/** Sets up the accounts' links (one giver in five, the rest receivers), and $100 for each. */
export async function setUpMoney(base: string, accounts: Account[]): Promise<MoneyAccount[]> {
  const out: MoneyAccount[] = [];
  for (const [i, a] of accounts.entries()) {
    const role = i % 5 === 4 ? 'giver' : 'receiver';
    await must(
      base,
      'POST',
      '/api/billing-settings-deposit',
      a.token,
      { balance: 100 + (role === 'giver' ? 100 : 0) },
      crypto.randomUUID(),
    );
    const details =
      role === 'giver'
        ? { giveorreceive: 'give', type: 'currency', amount: GIVE_LINK_CENTS / 100, initialQuantity: GIVE_LINK_USES }
        : { giveorreceive: 'receive', type: 'currency', amount: 50_000, initialQuantity: 1 };
    const link = await must<{ _id?: string; link?: { _id: string } }>(
      base,
      'POST',
      '/links/create',
      a.token,
      { details },
      crypto.randomUUID(),
    );
    out.push({ ...a, role, linkId: link._id ?? link.link!._id });
  }
  return out;
}

export class MoneyLoad {
  readonly sent: Sent[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private readonly receivers: MoneyAccount[];
  private readonly givers: MoneyAccount[];

  constructor(
    private readonly base: string,
    private readonly accounts: MoneyAccount[],
  ) {
    this.receivers = accounts.filter((a) => a.role === 'receiver');
    this.givers = accounts.filter((a) => a.role === 'giver');
  }

  /** A give from every account to the next receiver: each has a conversation before the chat starts. */
  async seedConversations(): Promise<void> {
    for (const [i, a] of this.accounts.entries()) {
      let to = this.receivers[i % this.receivers.length];
      if (to === a) to = this.receivers[(i + 1) % this.receivers.length];
      await must(this.base, 'POST', '/statuses/api/gives', a.token, { postId: to.linkId, amount: 1 }, crypto.randomUUID());
    }
  }

  private next(): Op {
    const pick = <T>(list: T[]) => list[crypto.randomInt(list.length)];
    const user = pick(this.accounts);
    const roll = crypto.randomInt(10);
    if (roll < 4) return { kind: 'deposit', user, cents: 100 * (1 + crypto.randomInt(5)) };
    if (roll < 8) {
      let to = pick(this.receivers);
      while (to === user) to = pick(this.receivers);
      return { kind: 'give', user, to, cents: 100 * (1 + crypto.randomInt(3)) };
    }
    let creator = pick(this.givers);
    while (creator === user) creator = pick(this.givers);
    return { kind: 'accept', user, creator };
  }

  private async send(s: Sent): Promise<void> {
    const { op } = s;
    const answer =
      op.kind === 'deposit'
        ? await call(this.base, 'POST', '/api/billing-settings-deposit', op.user.token, { balance: op.cents / 100 }, s.key)
        : op.kind === 'give'
          ? await call(this.base, 'POST', '/statuses/api/gives', op.user.token, { postId: op.to.linkId, amount: op.cents / 100 }, s.key)
          : await call(this.base, 'PUT', '/api/accept-link', op.user.token, { linkCreatorUsername: op.creator.username }, s.key);
    s.status = answer.status;
    s.replayed = answer.replayed;
    s.error = answer.status >= 300 ? errorCode(answer) : undefined;
  }

  /** `concurrency` workers, each sending one request after another until `stop`. */
  start(concurrency: number): void {
    this.running = true;
    const worker = async () => {
      while (this.running) {
        const s: Sent = { op: this.next(), key: crypto.randomUUID(), status: 0, replayed: false };
        this.sent.push(s);
        await this.send(s);
        // A failed request is sent again later with its key; meanwhile, no hot loop on a refusal.
        if (open(s)) await sleep(200);
      }
    };
    this.workers = Array.from({ length: concurrency }, worker);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /**
   * Sends every request without a final answer again with its key, until each has one or `ms`
   * pass (a deposit cut between its two steps waits for the payments.resolve job, every minute).
   * Answers how many were resent and how many of those had been applied before (replayed).
   */
  async resolve(ms: number): Promise<{ resent: number; appliedBefore: number; stillOpen: number }> {
    const unanswered = this.sent.filter(open);
    const deadline = Date.now() + ms;
    for (;;) {
      const pending = unanswered.filter(open);
      for (let i = 0; i < pending.length; i += 16) await Promise.all(pending.slice(i, i + 16).map((s) => this.send(s)));
      if (!unanswered.some(open) || Date.now() > deadline) break;
      await sleep(2_000);
    }
    return {
      resent: unanswered.length,
      appliedBefore: unanswered.filter((s) => s.replayed).length,
      stillOpen: unanswered.filter(open).length,
    };
  }

  /** A sample of acknowledged requests sent again: each must replay its answer. */
  async replaySample(count: number): Promise<number> {
    let wrong = 0;
    for (const s of this.acknowledged().slice(0, count)) {
      const status = s.status;
      await this.send(s);
      if (s.status !== status || !s.replayed) wrong += 1;
    }
    return wrong;
  }

  acknowledged(): Sent[] {
    return this.sent.filter((s) => s.status >= 200 && s.status < 300);
  }

  refused(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.sent.filter((x) => x.status >= 300 && !open(x))) {
      const k = `${s.status} ${s.op.kind} ${s.error}`;
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  }

  /** Every account's balance now, in cents. */
  async balances(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const a of this.accounts) {
      const body = await must<{ balance: number }>(this.base, 'GET', '/api/billing-settings-balance', a.token);
      out.set(a.id, Math.round(body.balance * 100));
    }
    return out;
  }

  /** Accounts whose balance is not `baseline` plus the acknowledged movements: lost or doubled money. */
  async mismatches(baseline: Map<string, number>): Promise<{ username: string; balance: number; expected: number }[]> {
    const expected = new Map(baseline);
    const add = (a: MoneyAccount, cents: number) => expected.set(a.id, expected.get(a.id)! + cents);
    for (const { op } of this.acknowledged()) {
      if (op.kind === 'deposit') add(op.user, op.cents);
      else if (op.kind === 'give') {
        add(op.user, -op.cents);
        add(op.to, op.cents);
      } else add(op.user, GIVE_LINK_CENTS);
    }
    const now = await this.balances();
    return this.accounts
      .filter((a) => now.get(a.id) !== expected.get(a.id))
      .map((a) => ({ username: a.username, balance: now.get(a.id)!, expected: expected.get(a.id)! }));
  }
}
