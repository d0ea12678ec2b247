import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { revokeUserSessions } from '../auth/session.js';
import { MessageEntity } from '../conversations/entity.js';
import { memberConversation } from '../conversations/service.js';
import type { Database } from '../db/index.js';
import { badRequest, isUniqueViolation, notFound } from '../errors.js';
import { spend, type RateLimits } from '../limits/rate-limits.js';
import { LinkEntity } from '../links/entity.js';
import { closeAndRefund } from '../links/escrow.js';
import type { Realtime } from '../realtime/hub.js';
import { UserEntity, type User } from '../users/entity.js';
import { REPORT_CONTEXT_MESSAGES } from '../../contract/limits.js';
import { REPORT_OWN_MESSAGE, REPORTS_TOO_QUICKLY } from '../../contract/texts.js';
import type { CreateReportInput } from '../../contract/reports.js';
import { ReportEntity, type Report, type ReportedMessage } from './entity.js';
import { canReport, reportedAccountOf } from './policy.js';

const snapshot = (m: { id: string; senderId: string; text: string; createdAt: Date }): ReportedMessage => ({
  messageId: m.id,
  senderId: m.senderId,
  text: m.text,
  createdAt: m.createdAt.toISOString(),
});

/** Reports one reporter may file in an hour (a repeat of one they already filed is not counted). */
export const REPORTS_PER_HOUR = 10;

export interface ReportDeps {
  db: Database;
  limits: RateLimits;
}

/** The reporter's earlier report of this message, if any (one per message per reporter). */
const earlierReport = (db: Database, reporterId: string, messageId: string) =>
  db.manager.findOneBy(ReportEntity, { reporterId, messageId });

/**
 * A member reports a message of the conversation, or the conversation (its last
 * REPORT_CONTEXT_MESSAGES messages). The text is copied as it reads now; the reported account is
 * the conversation's other member, worked out here and never answered (an anonymous giver stays
 * anonymous to the reporter). Non-members get the conversation's 403/404, as everywhere.
 *
 * A message the reporter already reported answers that report (`created: false`) and stores and
 * counts nothing; any other report spends one of the reporter's REPORTS_PER_HOUR, past which it is
 * a 429 (`onLimited` gets the wait). Both rules go by the reporter alone, never by who is reported.
 */
export async function createReport(
  deps: ReportDeps,
  reporterId: string,
  input: CreateReportInput,
  onLimited?: (msBeforeNext: number) => void,
): Promise<{ report: Report; created: boolean }> {
  const { db } = deps;
  const conversation = await memberConversation(db, reporterId, input.conversationId, canReport);
  let content: ReportedMessage[];
  if (input.messageId) {
    const message = await db.manager.findOneBy(MessageEntity, { id: input.messageId, conversationId: conversation.id });
    if (!message) throw notFound('Message not found');
    if (message.senderId === reporterId) throw badRequest(REPORT_OWN_MESSAGE, 'own_message');
    const earlier = await earlierReport(db, reporterId, message.id);
    if (earlier) return { report: earlier, created: false };
    content = [snapshot(message)];
  } else {
    const last = await db.manager.find(MessageEntity, {
      where: { conversationId: conversation.id },
      order: { seq: 'DESC' },
      take: REPORT_CONTEXT_MESSAGES,
    });
    content = last.reverse().map(snapshot);
  }
  const limiter = deps.limits.limiter('reports.hour', REPORTS_PER_HOUR, 60 * 60);
  await spend(limiter, reporterId, REPORTS_TOO_QUICKLY, onLimited);
  const report: Report = {
    id: crypto.randomUUID(),
    reporterId,
    reportedId: reportedAccountOf(reporterId, conversation),
    conversationId: conversation.id,
    messageId: input.messageId ?? null,
    reason: input.reason,
    note: input.note ? input.note : null,
    content: JSON.stringify(content),
    status: 'open',
    createdAt: new Date(),
    resolvedAt: null,
  };
  try {
    await db.transaction((em) => em.insert(ReportEntity, { ...report }));
  } catch (err) {
    // The same report sent twice at once: the unique index kept the first, and the second is a repeat.
    const raced = input.messageId && isUniqueViolation(err) ? await earlierReport(db, reporterId, input.messageId) : null;
    if (!raced) throw err;
    await limiter.reward(reporterId, 1);
    return { report: raced, created: false };
  }
  return { report, created: true };
}

/** A report as a moderator sees it: identities included (moderators only, never an API answer). */
export interface ModeratorReportView {
  id: string;
  createdAt: string;
  reason: string;
  note: string | null;
  kind: 'message' | 'conversation';
  conversationId: string;
  messages: (ReportedMessage & { sender: string })[];
  reporter: { id: string; username: string };
  reported: { id: string; username: string; suspended: boolean };
}

/** Open reports, oldest first, with the stored text and both accounts. */
export async function listOpenReports(db: Database, limit = 200): Promise<ModeratorReportView[]> {
  const reports = await db.manager.find(ReportEntity, { where: { status: 'open' }, order: { createdAt: 'ASC' }, take: limit });
  const ids = [...new Set(reports.flatMap((r) => [r.reporterId, r.reportedId]))];
  const users = new Map<string, User>();
  for (const id of ids) {
    const user = await db.manager.findOneBy(UserEntity, { id });
    if (user) users.set(id, user);
  }
  const nameOf = (id: string) => users.get(id)?.username ?? '(closed account)';
  return reports.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    reason: r.reason,
    note: r.note,
    kind: r.messageId ? 'message' : 'conversation',
    conversationId: r.conversationId,
    messages: (JSON.parse(r.content) as ReportedMessage[]).map((m) => ({ ...m, sender: nameOf(m.senderId) })),
    reporter: { id: r.reporterId, username: nameOf(r.reporterId) },
    reported: { id: r.reportedId, username: nameOf(r.reportedId), suspended: users.get(r.reportedId)?.suspendedAt != null },
  }));
}

/** Marks an open report resolved; false when there is no such open report. */
export async function resolveReport(db: Database, reportId: string, now = new Date()): Promise<boolean> {
  const result = await db.transaction((em) =>
    em
      .createQueryBuilder()
      .update(ReportEntity)
      .set({ status: 'resolved', resolvedAt: now })
      .where('id = :reportId AND status = :open', { reportId, open: 'open' })
      .execute(),
  );
  return result.affected === 1;
}

/**
 * Closes the user's open give links and gives their escrow back, inside the caller's transaction,
 * as the expiry sweep does (links/escrow.ts): exactly once. Answers the cents refunded.
 */
async function closeGiveLinks(em: EntityManager, userId: string, now: Date): Promise<number> {
  const open = await em.findBy(LinkEntity, { creatorId: userId, status: 'active', giveOrReceive: 'give' });
  let refunded = 0;
  for (const link of open) refunded += (await closeAndRefund(em, link, now)) ?? 0;
  return refunded;
}

export interface SuspendResult {
  user: { id: string; username: string };
  /** False when the account was already suspended (nothing changed). */
  suspended: boolean;
  refundedCents: number;
}

/**
 * Suspends an account (by username or id): in one transaction it is marked suspended, every
 * session of it revoked and its open give links closed with their escrow back on its balance
 * through the ledger. Then its sockets close on every API process that `realtime` reaches
 * (the CLI has none: each API process's `closeSuspendedSockets` sweep closes them).
 */
export async function suspendAccount(
  deps: { db: Database; realtime?: Pick<Realtime, 'endSessions'> },
  who: string,
  reason: string | null = null,
  now = new Date(),
): Promise<SuspendResult> {
  const user =
    (await deps.db.manager.findOneBy(UserEntity, { username: who.toLowerCase() })) ??
    (await deps.db.manager.findOneBy(UserEntity, { id: who }));
  if (!user) throw notFound('User not found');
  const result = await deps.db.transaction(async (em) => {
    const marked = await em
      .createQueryBuilder()
      .update(UserEntity)
      .set({ suspendedAt: now, suspensionReason: reason ? reason.slice(0, 500) : null })
      .where('id = :id AND suspended_at IS NULL', { id: user.id })
      .execute();
    await revokeUserSessions(em, user.id);
    const refundedCents = await closeGiveLinks(em, user.id, now);
    return { suspended: marked.affected === 1, refundedCents };
  });
  await deps.realtime?.endSessions(user.id, () => true);
  return { user: { id: user.id, username: user.username }, ...result };
}

/** Lifts a suspension (the sessions stay ended; the user logs in again). */
export async function unsuspendAccount(db: Database, who: string): Promise<boolean> {
  const user =
    (await db.manager.findOneBy(UserEntity, { username: who.toLowerCase() })) ?? (await db.manager.findOneBy(UserEntity, { id: who }));
  if (!user) throw notFound('User not found');
  const result = await db.transaction((em) => em.update(UserEntity, { id: user.id }, { suspendedAt: null, suspensionReason: null }));
  return result.affected === 1;
}

/** How often each API process closes its sockets of sessions revoked elsewhere. */
export const REVOKED_SOCKETS_SWEEP_MS = 5_000;

/**
 * This process's sockets whose session has been revoked (suspension from the CLI, which cannot
 * reach the sockets) close: run on a timer by server.ts. One query for all local sockets.
 */
export async function closeRevokedSockets(
  db: Database,
  sockets: { data: { sessionId: string }; disconnect(close: boolean): unknown }[],
): Promise<number> {
  if (!sockets.length) return 0;
  const ids = [...new Set(sockets.map((s) => s.data.sessionId))];
  const live = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.manager
      .createQueryBuilder()
      .select('s.id', 'id')
      .from('sessions', 's')
      .where('s.id IN (:...ids) AND s.revoked_at IS NULL', { ids: ids.slice(i, i + 500) })
      .getRawMany<{ id: string }>();
    for (const r of rows) live.add(r.id);
  }
  let closed = 0;
  for (const s of sockets)
    if (!live.has(s.data.sessionId)) {
      s.disconnect(true);
      closed += 1;
    }
  return closed;
}
