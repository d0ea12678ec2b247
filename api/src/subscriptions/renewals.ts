import type { EntityManager } from 'typeorm';
import { SUBSCRIPTION_PRICE_CENTS } from '../../contract/limits.js';
import { SUBSCRIPTION_RENEWAL_FAILED } from '../../contract/texts.js';
import { dateParam } from '../db/dates.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { SYSTEM_SUBSCRIPTIONS, transfer, userAccount } from '../money/ledger.js';
import { notify } from '../notifications/service.js';
import { UserEntity } from '../users/entity.js';
import { SubscriptionEntity, type Subscription } from './entity.js';
import { SandboxPayments } from '../payments/sandbox.js';
import { SUBSCRIPTION_PERIOD_MS } from '../payments/provider.js';
import { enqueueAlert, onceId } from '../alerts/outbox.js';

/**
 * The renewal job, run on a schedule by jobs/ with the time `now`. For each active
 * subscription whose period has ended:
 * - canceled at period end: it is over (status canceled; the benefits already ended with the period);
 * - paid from the balance: the next week is claimed by a conditional update on the old period end
 *   and charged through the ledger in the same transaction, so two processes running this at once
 *   charge once; a short balance makes it past due and notifies the user;
 * - paid by a sandbox card: the sandbox charges the card (once per period), then the period moves on;
 * - paid through Stripe: nothing here (Stripe renews, and its webhook settles; settle.ts).
 */
export type RenewalDeps = Pick<Deps, 'db' | 'log'> & { clock?: () => Date };

export interface RenewalReport {
  renewed: number;
  pastDue: number;
  ended: number;
}

const BATCH = 200;

/** Thrown inside a renewal's transaction when the balance is short: rolls the claim back. */
class ShortBalance extends AppError {
  constructor() {
    super(400, 'insufficient_funds', 'The balance does not cover the renewal.');
  }
}

/** The next period's end: a week after the old one, or a week from now when the job ran late. */
function nextPeriodEnd(old: Date, now: Date): Date {
  const next = old.getTime() + SUBSCRIPTION_PERIOD_MS;
  return new Date(next > now.getTime() ? next : now.getTime() + SUBSCRIPTION_PERIOD_MS);
}

/**
 * Moves a subscription on from `old` (its period end as read) by a conditional update: true when
 * this call made the change, false when another process (or a cancel) got there first.
 */
async function claim(em: EntityManager, sub: Subscription, old: Date, changes: Partial<Subscription>, now: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(SubscriptionEntity)
    .set({ ...changes, updatedAt: now })
    .where('id = :id', { id: sub.id })
    .andWhere('status = :active', { active: 'active' })
    .andWhere('current_period_end = :old', { old: dateParam(em, old) })
    .execute();
  return result.affected === 1;
}

async function dueSubscriptions(deps: RenewalDeps, now: Date): Promise<Subscription[]> {
  return (
    deps.db.manager
      .createQueryBuilder(SubscriptionEntity, 's')
      .where('s.status = :active', { active: 'active' })
      .andWhere('s.current_period_end <= :now', { now: dateParam(deps.db.manager, now) })
      // Stripe renews its own (the webhook settles them): only their ends are ours to act on.
      .andWhere("(s.provider IN ('balance', 'sandbox') OR s.cancel_at_period_end = :yes)", { yes: true })
      .orderBy('s.current_period_end', 'ASC')
      .limit(BATCH)
      .getMany()
  );
}

/** Runs the renewals due at `now`, a batch at a time; safe to run from several processes at once. */
export async function renewDueSubscriptions(deps: RenewalDeps, now: Date): Promise<RenewalReport> {
  const report: RenewalReport = { renewed: 0, pastDue: 0, ended: 0 };
  const sandbox = new SandboxPayments(deps.db, deps.clock ?? (() => now));
  for (;;) {
    const due = await dueSubscriptions(deps, now);
    let changed = 0;
    for (const sub of due) {
      const outcome = await renewOne(deps, sandbox, sub, now).catch((err: unknown) => {
        deps.log.error({ err, subscriptionId: sub.id }, 'subscription renewal failed');
        return 'skipped' as const;
      });
      if (outcome === 'skipped') continue;
      changed += 1;
      if (outcome === 'renewed') report.renewed += 1;
      else if (outcome === 'past_due') report.pastDue += 1;
      else report.ended += 1;
    }
    // A renewed, past-due or ended subscription is no longer due: stop when a batch changed nothing.
    if (due.length < BATCH || changed === 0) return report;
  }
}

type Outcome = 'renewed' | 'past_due' | 'ended' | 'skipped';

async function renewOne(deps: RenewalDeps, sandbox: SandboxPayments, sub: Subscription, now: Date): Promise<Outcome> {
  const old = sub.currentPeriodEnd;
  if (!old) return 'skipped';
  if (sub.cancelAtPeriodEnd) {
    if (!(await endCanceled(deps, sub, old, now))) return 'skipped';
    if (sub.provider === 'sandbox' && sub.providerSubscriptionId) await sandbox.end(sub.providerSubscriptionId);
    return 'ended';
  }
  if (sub.provider === 'balance') return renewFromBalance(deps, sub, old, now);
  if (sub.provider === 'sandbox' && sub.providerSubscriptionId) return renewSandboxCard(deps, sandbox, sub, old, now);
  return 'skipped';
}

/** A subscription canceled at its period end, once the end has passed: canceled, benefits off. */
function endCanceled(deps: RenewalDeps, sub: Subscription, old: Date, now: Date): Promise<boolean> {
  return deps.db.transaction(async (em) => {
    if (!(await claim(em, sub, old, { status: 'canceled' }, now))) return false;
    await em.update(UserEntity, { id: sub.userId }, { subscribedUntil: null });
    return true;
  });
}

/** One week more from the balance: the claim and the ledger's charge in one transaction. */
async function renewFromBalance(deps: RenewalDeps, sub: Subscription, old: Date, now: Date): Promise<Outcome> {
  const next = nextPeriodEnd(old, now);
  try {
    return await deps.db.transaction(async (em) => {
      if (!(await claim(em, sub, old, { currentPeriodEnd: next }, now))) return 'skipped';
      await transfer(em, {
        from: userAccount(sub.userId),
        to: SYSTEM_SUBSCRIPTIONS,
        amountCents: SUBSCRIPTION_PRICE_CENTS,
        kind: 'subscription',
        actorUserId: null,
        reference: sub.id,
        insufficient: () => new ShortBalance(),
      });
      await em.update(UserEntity, { id: sub.userId }, { subscribedUntil: next });
      await enqueueAlert(em, { userId: sub.userId, kind: 'subscription_renewed' });
      return 'renewed';
    });
  } catch (err) {
    if (!(err instanceof ShortBalance)) throw err;
    return markPastDue(deps, sub, old, now, true);
  }
}

/**
 * A renewal that could not be paid: past due (benefits off). A balance-paid one tells the user,
 * once, to add money (the notification's text is about the balance).
 */
async function markPastDue(deps: RenewalDeps, sub: Subscription, old: Date, now: Date, fromBalance: boolean): Promise<Outcome> {
  const claimed = await deps.db.transaction(async (em): Promise<boolean> => {
    if (!(await claim(em, sub, old, { status: 'past_due' }, now))) return false;
    await em.update(UserEntity, { id: sub.userId }, { subscribedUntil: null });
    await enqueueAlert(em, { userId: sub.userId, kind: 'subscription_failed' });
    if (!fromBalance) return true;
    await notify(
      em,
      {
        senderId: null,
        receiverId: sub.userId,
        amountCents: SUBSCRIPTION_PRICE_CENTS,
        type: 'subscription',
        giveOrReceive: null,
        linkOrWishlist: 'link',
        relatedPostId: null,
        message: SUBSCRIPTION_RENEWAL_FAILED,
        itemPhoto: null,
        itemTitle: null,
        itemId: null,
        conversationId: null,
      },
      'subscription_failed',
    );
    return true;
  });
  return claimed ? 'past_due' : 'skipped';
}

/** One week more on a sandbox card: the sandbox charges once per period, then our period moves on. */
async function renewSandboxCard(deps: RenewalDeps, sandbox: SandboxPayments, sub: Subscription, old: Date, now: Date): Promise<Outcome> {
  const state = await sandbox.chargeRenewal(sub.providerSubscriptionId ?? '', old);
  if (!state) return markPastDue(deps, sub, old, now, false);
  const next = state.currentPeriodEnd > now ? state.currentPeriodEnd : nextPeriodEnd(old, now);
  return deps.db.transaction(async (em) => {
    if (!(await claim(em, sub, old, { currentPeriodEnd: next }, now))) return 'skipped';
    await em.update(UserEntity, { id: sub.userId }, { subscribedUntil: next });
    await enqueueAlert(em, { userId: sub.userId, kind: 'subscription_renewed' });
    return 'renewed';
  });
}

const DAY_MS = 24 * 3600_000;

/**
 * 'Renews tomorrow': each active subscription that will renew (not canceled at its end) within 24
 * hours gets one reminder per period (the alert's id is the period's), however often this runs.
 */
export async function remindRenewals(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  const soon = await deps.db.manager
    .createQueryBuilder(SubscriptionEntity, 's')
    .where('s.status = :active AND s.cancel_at_period_end = :no', { active: 'active', no: false })
    .andWhere('s.current_period_end > :now AND s.current_period_end <= :soon', {
      now: dateParam(deps.db.manager, now),
      soon: dateParam(deps.db.manager, new Date(now.getTime() + DAY_MS)),
    })
    .getMany();
  await deps.db.transaction(async (em) => {
    for (const sub of soon) {
      const id = onceId(`renews-soon:${sub.id}:${sub.currentPeriodEnd?.toISOString()}`);
      await enqueueAlert(em, { id, userId: sub.userId, kind: 'subscription_renews_soon', createdAt: now });
    }
  });
  return soon.length;
}
