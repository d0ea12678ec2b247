/**
 * The email job (jobs/jobs.ts runs it every 10 s, once per period across processes): the outbox's
 * pending alerts older than ALERT_EMAIL_DELAY_MS, grouped into batches, each sent as one email.
 *
 * - A batch is one alert, or a conversation's pending messages: at most one email per conversation
 *   per 15 minutes, so messages after an email wait for the window's end and go as one digest.
 * - Left pending: a user with a socket open (they see it in the app; security kinds go anyway),
 *   for up to a day. Skipped for good: alerts whose message was read meanwhile, kinds turned off,
 *   closed or suspended accounts and accounts without an email.
 * - Crash safety: the batch is written on its rows (`email_batch`, with a lease) before the email
 *   goes, and the email's Message-ID is the batch's; a process that dies between the send and the
 *   mark leaves the rows to be claimed again after the lease, as the same batch: the resent email
 *   is the same email (the receiving server keeps one), and nothing is lost.
 */
import type { Deps } from '../deps.js';
import { dateParam } from '../db/dates.js';
import { isLockedAlertKind } from '../../contract/alerts.js';
import { AlertEntity, AlertPreferenceEntity, type Alert } from './entity.js';
import { emailChannel } from './email-channel.js';
import { isBatched, isEnabled, MESSAGE_BATCH_WINDOW_MS, type AlertChannel, type AlertPayload } from './rules.js';
import { readMessageIds, recipientRow } from './store.js';

export type EmailJobDeps = Pick<Deps, 'db' | 'config' | 'tokens' | 'mailer' | 'log'> & {
  realtime: { presence: Pick<Deps['realtime']['presence'], 'isOnline'> };
};

/** A batch whose email failed this many times is given up (skipped). */
const MAX_ATTEMPTS = 5;
const SCAN = 500;
/** Pending this long (its user online all along): given up. */
const STALE_MS = 24 * 3600_000;

export interface EmailRun {
  sent: number;
  skipped: number;
  waiting: number;
}

/** One run of the job at `now`; `channel` is the email channel unless a test hands another. */
export async function sendAlertEmails(deps: EmailJobDeps, now: Date, channel: AlertChannel = emailChannel(deps)): Promise<EmailRun> {
  const run: EmailRun = { sent: 0, skipped: 0, waiting: 0 };
  const em = deps.db.manager;
  const due: Alert[] = await em
    .createQueryBuilder(AlertEntity, 'a')
    .where("a.email_state = 'pending' AND a.created_at <= :due", {
      due: dateParam(em, new Date(now.getTime() - deps.config.alertEmailDelayMs)),
    })
    .andWhere('(a.email_claimed_until IS NULL OR a.email_claimed_until <= :now)', { now: dateParam(em, now) })
    .orderBy('a.created_at', 'ASC')
    .limit(SCAN)
    .getMany();
  for (const batch of batches(due)) {
    try {
      const outcome = await sendBatch(deps, channel, batch, now);
      run[outcome] += 1;
    } catch (err) {
      deps.log.error({ err, batch: batch.id }, 'alert email failed');
    }
  }
  return run;
}

interface Batch {
  /** The batch's id: set on its rows, and the email's Message-ID. */
  id: string;
  /** Rows already claimed as this batch by a run that may have sent it (a crash): send as is. */
  resumed: boolean;
  alerts: Alert[];
}

/** Rows of a batch claimed before stay that batch; the others group by conversation (batched kinds) or go one each. */
function batches(due: Alert[]): Batch[] {
  const groups = new Map<string, Batch>();
  for (const alert of due) {
    const key = alert.emailBatch
      ? `batch:${alert.emailBatch}`
      : isBatched(alert.kind) && alert.conversationId
        ? `${alert.userId}:${alert.kind}:${alert.conversationId}`
        : `alert:${alert.id}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { id: alert.emailBatch ?? alert.id, resumed: alert.emailBatch !== null, alerts: [] }));
    group.alerts.push(alert);
  }
  return [...groups.values()];
}

async function sendBatch(deps: EmailJobDeps, channel: AlertChannel, batch: Batch, now: Date): Promise<keyof EmailRun> {
  const [first] = batch.alerts;
  const { kind, userId, conversationId } = first;
  const user = await recipientRow(deps.db, userId);
  if (!user || user.closed || user.suspended || !user.email) return settle(deps, batch.alerts, 'skipped', now);
  if (!batch.resumed) {
    // A day later it has been seen in the app, or is no news any more; and it must not hold the scan's head.
    if (now.getTime() - first.createdAt.getTime() > STALE_MS) return settle(deps, batch.alerts, 'skipped', now);
    const stored = await deps.db.manager.findOneBy(AlertPreferenceEntity, { userId, kind, channel: 'email' });
    if (!isEnabled(kind, 'email', stored?.enabled)) return settle(deps, batch.alerts, 'skipped', now);
    if (!isLockedAlertKind(kind) && (await deps.realtime.presence.isOnline(userId))) return 'waiting';
    // Read in the app meanwhile: nothing left to tell.
    const read = await readMessageIds(
      deps.db,
      batch.alerts.flatMap((a) => payloadOf(a).messageId ?? []),
    );
    const unread = batch.alerts.filter((a) => !read.has(payloadOf(a).messageId ?? ''));
    if (unread.length < batch.alerts.length)
      await settle(
        deps,
        batch.alerts.filter((a) => !unread.includes(a)),
        'skipped',
        now,
      );
    if (!unread.length) return 'skipped';
    batch.alerts = unread;
    if (isBatched(kind) && conversationId && (await windowOpen(deps, userId, conversationId, now))) return 'waiting';
  }
  if (first.emailAttempts >= MAX_ATTEMPTS) return settle(deps, batch.alerts, 'skipped', now);
  if (!(await claim(deps, batch, now))) return 'waiting';
  await channel.deliver({
    to: { userId, username: user.username, email: user.email },
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
      .set({ emailState: 'sent', emailSentAt: now, emailClaimedUntil: null })
      .where("email_batch = :batch AND email_state = 'pending'", { batch: batch.id })
      .execute(),
  );
  return 'sent';
}

const payloadOf = (alert: Alert): AlertPayload => JSON.parse(alert.payload) as AlertPayload;

/** Whether an email about this conversation went less than the window ago (then the batch waits). */
async function windowOpen(deps: EmailJobDeps, userId: string, conversationId: string, now: Date): Promise<boolean> {
  const last = await deps.db.manager.findOne(AlertEntity, {
    where: { userId, conversationId, kind: 'message', emailState: 'sent' },
    order: { emailSentAt: 'DESC' },
    select: { id: true, emailSentAt: true },
  });
  return !!last?.emailSentAt && now.getTime() - last.emailSentAt.getTime() < MESSAGE_BATCH_WINDOW_MS;
}

/**
 * Claims the batch's rows with a lease and writes the batch on them, before the email goes: true
 * when every row was still pending and free (another run claimed none of them).
 */
async function claim(deps: EmailJobDeps, batch: Batch, now: Date): Promise<boolean> {
  const ids = batch.alerts.map((a) => a.id);
  return deps.db
    .transaction(async (tx) => {
      const result = await tx
        .createQueryBuilder()
        .update(AlertEntity)
        .set({
          emailBatch: batch.id,
          emailClaimedUntil: new Date(now.getTime() + deps.config.alertEmailLeaseMs),
          emailAttempts: () => 'email_attempts + 1',
        })
        .where("id IN (:...ids) AND email_state = 'pending'", { ids })
        .andWhere('(email_claimed_until IS NULL OR email_claimed_until <= :now)', { now: dateParam(tx, now) })
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

/** Settles alerts for good (sent or skipped), unless another run already did. */
async function settle(deps: EmailJobDeps, alerts: Alert[], state: 'skipped', now: Date): Promise<'skipped'> {
  const ids = alerts.map((a) => a.id);
  if (ids.length)
    await deps.db.transaction((tx) =>
      tx
        .createQueryBuilder()
        .update(AlertEntity)
        .set({ emailState: state, emailClaimedUntil: null, emailSentAt: null })
        .where("id IN (:...ids) AND email_state = 'pending'", { ids })
        .andWhere('(email_claimed_until IS NULL OR email_claimed_until <= :now)', { now: dateParam(tx, now) })
        .execute(),
    );
  return 'skipped';
}
