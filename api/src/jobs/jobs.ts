/**
 * The scheduled jobs of one API process: each runs once per period across all processes
 * sharing the database (jobs/scheduler.ts). Every job takes the period's `now`, so tests drive
 * them with an injected clock.
 */
import type { Deps } from '../deps.js';
import { releaseClosedUsernames } from '../users/release.js';
import { sweepExpiredLinks } from '../links/expiry.js';
import { orderDeps, sweepOrders } from '../orders/service.js';
import { remindRenewals, renewDueSubscriptions } from '../subscriptions/renewals.js';
import { resolvePendingPayments } from '../wallet/intents.js';
import { reconcileWithProvider } from '../wallet/reconcile.js';
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import type { WalletPayments } from '../payments/provider.js';
import { deliverAlerts, pruneAlerts, sendAlertEmails } from '../alerts/job.js';
import { pushChannel } from '../push/channel.js';
import { Scheduler, type ScheduledJob } from './scheduler.js';

const MINUTE = 60_000;

/** The registration list: every scheduled job, its period and its work. */
export function scheduledJobs(deps: Deps, payments: WalletPayments): ScheduledJob[] {
  const push = pushChannel(deps);
  return [
    {
      // Expired links give their unused escrow back, exactly once (a conditional update per link).
      name: 'links.expire',
      everyMs: MINUTE,
      run: (now) => sweepExpiredLinks(deps.db, now),
    },
    {
      // Alerts settled on every channel are kept a month (alerts/job.ts), then deleted.
      name: 'alerts.prune',
      everyMs: 60 * MINUTE,
      run: (now) => pruneAlerts(deps, now),
    },
    {
      // SQLite's PRAGMA optimize and the reopening of its reader (db.optimize): hourly, on its own.
      name: 'db.optimize',
      everyMs: 60 * MINUTE,
      run: () => deps.db.optimize(),
    },
    {
      // Item orders: waiting ones past 14 days go back to their givers; the marketplace moves the rest on.
      name: 'orders.sweep',
      everyMs: MINUTE,
      run: (now) => sweepOrders(orderDeps(deps), now),
    },
    {
      // Deposits and withdrawals left pending (a crash or a provider that did not answer) are asked again and settled.
      name: 'payments.resolve',
      everyMs: MINUTE,
      run: (now) => resolvePendingPayments({ db: deps.db, payments, log: deps.log }, now),
    },
    ...(deps.config.payments === 'sandbox'
      ? [
          {
            // The sandbox's disputed test card: its charges are disputed shortly after, as Stripe's webhook would say.
            name: 'payments.sandbox-disputes',
            everyMs: MINUTE / 2,
            run: (now: Date) => disputeSandboxCharges(deps, now),
          },
        ]
      : []),
    {
      // The provider's card payments against the ledger: a charge without its credit is logged as an error.
      name: 'payments.reconcile',
      everyMs: 60 * MINUTE,
      run: (now) => reconcileWithProvider({ db: deps.db, payments, log: deps.log }, now),
    },
    {
      // Weekly subscriptions whose period ended: renewed (balance or sandbox card), past due, or ended.
      name: 'subscriptions.renew',
      everyMs: MINUTE,
      run: (now) => renewDueSubscriptions(deps, now),
    },
    {
      // 'Renews tomorrow' alerts: once per subscription period (the alert's id is the period's).
      name: 'subscriptions.remind',
      everyMs: 10 * MINUTE,
      run: (now) => remindRenewals(deps, now),
    },
    ...(deps.config.alertsEmail
      ? [
          {
            // The alerts outbox's emails, for users with no tab open (alerts/job.ts): the first within a minute.
            name: 'alerts.email',
            everyMs: 10_000,
            run: (now: Date) => sendAlertEmails(deps, now),
          },
        ]
      : []),
    ...(deps.config.alertsPush
      ? [
          {
            // The same outbox as Web Push, to the devices of users with no tab open (push/channel.ts).
            name: 'alerts.push',
            everyMs: 10_000,
            run: (now: Date) => deliverAlerts(deps, push, now),
          },
        ]
      : []),
    {
      // Closed accounts' usernames come free 30 days after they closed (users/release.ts).
      name: 'accounts.release',
      everyMs: 60 * MINUTE,
      run: async (now) => {
        await deps.db.transaction((em) => releaseClosedUsernames(em, now));
      },
    },
  ];
}

/** The process's scheduler over `scheduledJobs`, on the app's clock (`deps.clock`). */
export function createScheduler(deps: Deps, payments: WalletPayments): Scheduler {
  return new Scheduler(deps.db, scheduledJobs(deps, payments), {
    clock: () => deps.clock(),
    log: deps.log,
    onRun: deps.metrics && ((job, run) => deps.metrics?.jobRan(job, run)),
  });
}
