/**
 * The alert jobs (jobs/jobs.ts runs one per channel, every 10 s, once per period across
 * processes): the outbox's alerts pending on that channel and older than ALERT_EMAIL_DELAY_MS,
 * grouped into batches, each delivered as one email or one push. Each channel keeps its own state
 * on the row (`email_*`, `push_*` columns: CHANNEL_COLUMNS), so one channel's failure or
 * preference never holds the other.
 *
 * - A batch is one alert, or a conversation's pending messages: at most one delivery per
 *   conversation per channel per 15 minutes, so messages after one wait for the window's end and
 *   go as one digest.
 * - Left pending: a user with a socket open (they see it in the app; security kinds go anyway),
 *   for up to a day, looked at again every WAIT_RECHECK_MS (a waiting batch is leased till then, so
 *   waiting ones never fill the scan); a digest waits likewise for its window's end. Rows settled on
 *   every channel are deleted after ALERT_RETENTION_MS (`pruneAlerts`, an hourly job).
 * - Skipped for good: alerts whose message was read meanwhile, kinds turned off on that channel,
 *   closed or suspended accounts and users the channel cannot reach (no email; no device subscribed).
 * - Crash safety: the batch is written on its rows (`*_batch`, with a lease) before it goes, and
 *   the delivery's id is the batch's (the email's Message-ID, the push's tag); a process that dies
 *   between the send and the mark leaves the rows to be claimed again after the lease, as the same
 *   batch: the resent email is the same email, the resent push replaces its notification.
 */
import type { Deps } from '../deps.js';
import { dateParam } from '../db/dates.js';
import { isLockedAlertKind, type AlertChannel as ChannelName } from '../../contract/alerts.js';
import { AlertEntity, AlertPreferenceEntity, type Alert } from './entity.js';
import { emailChannel } from './email-channel.js';
import { isBatched, isEnabled, MESSAGE_BATCH_WINDOW_MS, type AlertChannel, type AlertPayload } from './rules.js';
import { readMessageIds, recipientRow } from './store.js';

export type AlertJobDeps = Pick<Deps, 'db' | 'config' | 'log' | 'metrics'> & {
  realtime: { presence: Pick<Deps['realtime']['presence'], 'isOnline'> };
};
export type EmailJobDeps = AlertJobDeps & Pick<Deps, 'tokens' | 'mailer'>;

/** A channel's state columns on `alerts`: SQL prefix and entity properties. */
const CHANNEL_COLUMNS = {
  email: {
    sql: 'email',
    state: 'emailState',
    attempts: 'emailAttempts',
    claimedUntil: 'emailClaimedUntil',
    batch: 'emailBatch',
    sentAt: 'emailSentAt',
  },
  push: {
    sql: 'push',
    state: 'pushState',
    attempts: 'pushAttempts',
    claimedUntil: 'pushClaimedUntil',
    batch: 'pushBatch',
    sentAt: 'pushSentAt',
  },
} as const satisfies Record<ChannelName, Record<string, string>>;
type Columns = (typeof CHANNEL_COLUMNS)[ChannelName];

/** A batch whose delivery failed this many times is given up (skipped). */
const MAX_ATTEMPTS = 5;
const SCAN = 500;
/** A batch waiting for its user to leave is looked at again this much later, so waiting ones never fill the scan. */
export const WAIT_RECHECK_MS = 30_000;
/** Alerts settled on every channel are deleted this long after they were made. */
export const ALERT_RETENTION_MS = 30 * 24 * 3600_000;
/** Pending this long (its user online all along): given up. */
const STALE_MS = 24 * 3600_000;

export interface AlertRun {
  sent: number;
  skipped: number;
  waiting: number;
}

/** One run of the email job at `now`; `channel` is the email channel unless a test hands another. */
export const sendAlertEmails = (
  deps: EmailJobDeps,
  now: Date,
  channel: AlertChannel = emailChannel(deps),
  scan?: number,
): Promise<AlertRun> => deliverAlerts(deps, channel, now, scan);

/** One run of `channel`'s job at `now`, over at most `scan` due alerts (oldest first). */
export async function deliverAlerts(deps: AlertJobDeps, channel: AlertChannel, now: Date, scan = SCAN): Promise<AlertRun> {
  const run: AlertRun = { sent: 0, skipped: 0, waiting: 0 };
  const c = CHANNEL_COLUMNS[channel.name];
  const em = deps.db.manager;
  const due: Alert[] = await em
    .createQueryBuilder(AlertEntity, 'a')
    .where(`a.${c.sql}_state = 'pending' AND a.created_at <= :due`, {
      due: dateParam(em, new Date(now.getTime() - deps.config.alertEmailDelayMs)),
    })
    .andWhere(`(a.${c.sql}_claimed_until IS NULL OR a.${c.sql}_claimed_until <= :now)`, { now: dateParam(em, now) })
    .orderBy('a.created_at', 'ASC')
    .limit(scan)
    .getMany();
  for (const batch of batches(due, c)) {
    try {
      const outcome = await sendBatch(deps, channel, c, batch, now);
      run[outcome === 'sent' || outcome === 'skipped' ? outcome : 'waiting'] += 1;
      if (typeof outcome === 'object') await postpone(deps, c, batch.alerts, outcome.until, now);
      if (outcome === 'sent') deps.metrics?.alertSent(channel.name);
    } catch (err) {
      deps.log.error({ err, batch: batch.id, channel: channel.name }, 'alert delivery failed');
    }
  }
  return run;
}

interface Batch {
  /** The batch's id: set on its rows, and the delivery's (the email's Message-ID). */
  id: string;
  /** Rows already claimed as this batch by a run that may have sent it (a crash): send as is. */
  resumed: boolean;
  alerts: Alert[];
}

/** Rows of a batch claimed before stay that batch; the others group by conversation (batched kinds) or go one each. */
function batches(due: Alert[], c: Columns): Batch[] {
  const groups = new Map<string, Batch>();
  for (const alert of due) {
    const claimed = alert[c.batch];
    const key = claimed
      ? `batch:${claimed}`
      : isBatched(alert.kind) && alert.conversationId
        ? `${alert.userId}:${alert.kind}:${alert.conversationId}`
        : `alert:${alert.id}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { id: claimed ?? alert.id, resumed: claimed !== null, alerts: [] }));
    group.alerts.push(alert);
  }
  return [...groups.values()];
}

/** A batch's outcome: sent, skipped for good, or waiting until a time (then its rows are looked at again). */
type Outcome = 'sent' | 'skipped' | { until: Date };

async function sendBatch(deps: AlertJobDeps, channel: AlertChannel, c: Columns, batch: Batch, now: Date): Promise<Outcome> {
  const [first] = batch.alerts;
  const { kind, userId, conversationId } = first;
  const skip = (alerts: Alert[]) => settle(deps, c, alerts, now);
  const user = await recipientRow(deps.db, userId);
  if (!user || user.closed || user.suspended) return skip(batch.alerts);
  const to = { userId, username: user.username, email: user.email };
  if (!(await channel.reaches(to))) return skip(batch.alerts);
  if (!batch.resumed) {
    // A day later it has been seen in the app, or is no news any more; and it must not hold the scan's head.
    if (now.getTime() - first.createdAt.getTime() > STALE_MS) return skip(batch.alerts);
    const stored = await deps.db.manager.findOneBy(AlertPreferenceEntity, { userId, kind, channel: channel.name });
    if (!isEnabled(kind, channel.name, stored?.enabled)) return skip(batch.alerts);
    if (!isLockedAlertKind(kind) && (await deps.realtime.presence.isOnline(userId)))
      return { until: new Date(now.getTime() + WAIT_RECHECK_MS) };
    // Read in the app meanwhile: nothing left to tell.
    const read = await readMessageIds(
      deps.db,
      batch.alerts.flatMap((a) => payloadOf(a).messageId ?? []),
    );
    const unread = batch.alerts.filter((a) => !read.has(payloadOf(a).messageId ?? ''));
    if (unread.length < batch.alerts.length) await skip(batch.alerts.filter((a) => !unread.includes(a)));
    if (!unread.length) return 'skipped';
    batch.alerts = unread;
    const windowEnds = isBatched(kind) && conversationId ? await windowEnd(deps, c, userId, conversationId) : null;
    if (windowEnds && windowEnds > now) return { until: windowEnds };
  }
  if (first[c.attempts] >= MAX_ATTEMPTS) return skip(batch.alerts);
  // Another run holds some of its rows: that run delivers them.
  if (!(await claim(deps, c, batch, now))) return { until: now };
  await channel.deliver({
    to,
    kind,
    batchId: batch.id,
    count: batch.alerts.length,
    conversationId,
    payload: payloadOf(first),
  });
  await deps.db.transaction((tx) =>
    tx
      .createQueryBuilder()
      .update(AlertEntity)
      .set({ [c.state]: 'sent', [c.sentAt]: now, [c.claimedUntil]: null })
      .where(`${c.sql}_batch = :batch AND ${c.sql}_state = 'pending'`, { batch: batch.id })
      .execute(),
  );
  return 'sent';
}

const payloadOf = (alert: Alert): AlertPayload => JSON.parse(alert.payload) as AlertPayload;

/** When the window of the last delivery about this conversation on this channel ends (until then the batch waits). */
async function windowEnd(deps: AlertJobDeps, c: Columns, userId: string, conversationId: string): Promise<Date | null> {
  const last = await deps.db.manager.findOne(AlertEntity, {
    where: { userId, conversationId, kind: 'message', [c.state]: 'sent' },
    order: { [c.sentAt]: 'DESC' },
    select: { id: true, [c.sentAt]: true },
  });
  const sentAt = last?.[c.sentAt];
  return sentAt ? new Date(sentAt.getTime() + MESSAGE_BATCH_WINDOW_MS) : null;
}

/** Leaves waiting rows out of the scans until `until` (a lease of no run: nothing is attempted). */
async function postpone(deps: AlertJobDeps, c: Columns, alerts: Alert[], until: Date, now: Date): Promise<void> {
  const ids = alerts.map((a) => a.id);
  if (!ids.length || until <= now) return;
  await deps.db.transaction((tx) =>
    tx
      .createQueryBuilder()
      .update(AlertEntity)
      .set({ [c.claimedUntil]: until })
      .where(`id IN (:...ids) AND ${c.sql}_state = 'pending' AND ${c.sql}_batch IS NULL`, { ids })
      .andWhere(`(${c.sql}_claimed_until IS NULL OR ${c.sql}_claimed_until <= :now)`, { now: dateParam(tx, now) })
      .execute(),
  );
}

/** Deletes alerts settled on every channel and older than the retention; answers how many. */
export async function pruneAlerts(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  const result = await deps.db.transaction((tx) =>
    tx
      .createQueryBuilder()
      .delete()
      .from(AlertEntity)
      .where("email_state <> 'pending' AND push_state <> 'pending' AND created_at < :before", {
        before: dateParam(tx, new Date(now.getTime() - ALERT_RETENTION_MS)),
      })
      .execute(),
  );
  return result.affected ?? 0;
}

/**
 * Claims the batch's rows with a lease and writes the batch on them, before it goes: true
 * when every row was still pending and free (another run claimed none of them).
 */
async function claim(deps: AlertJobDeps, c: Columns, batch: Batch, now: Date): Promise<boolean> {
  const ids = batch.alerts.map((a) => a.id);
  return deps.db
    .transaction(async (tx) => {
      const result = await tx
        .createQueryBuilder()
        .update(AlertEntity)
        .set({
          [c.batch]: batch.id,
          [c.claimedUntil]: new Date(now.getTime() + deps.config.alertEmailLeaseMs),
          [c.attempts]: () => `${c.sql}_attempts + 1`,
        })
        .where(`id IN (:...ids) AND ${c.sql}_state = 'pending'`, { ids })
        .andWhere(`(${c.sql}_claimed_until IS NULL OR ${c.sql}_claimed_until <= :now)`, { now: dateParam(tx, now) })
        .execute();
      if (result.affected === ids.length) return true;
      // Another run holds some of them: give the rest back untouched (rolled back).
      throw new ClaimLost();
    })
    .catch((err: unknown) => {
      if (err instanceof ClaimLost) return false;
      throw err;
    });
}

class ClaimLost extends Error {}

/** Skips alerts for good on this channel, unless another run already settled or holds them. */
async function settle(deps: AlertJobDeps, c: Columns, alerts: Alert[], now: Date): Promise<'skipped'> {
  const ids = alerts.map((a) => a.id);
  if (ids.length)
    await deps.db.transaction((tx) =>
      tx
        .createQueryBuilder()
        .update(AlertEntity)
        .set({ [c.state]: 'skipped', [c.claimedUntil]: null, [c.sentAt]: null })
        .where(`id IN (:...ids) AND ${c.sql}_state = 'pending'`, { ids })
        .andWhere(`(${c.sql}_claimed_until IS NULL OR ${c.sql}_claimed_until <= :now)`, { now: dateParam(tx, now) })
        .execute(),
    );
  return 'skipped';
}
