import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { hydrate, isPostgres, read, run, sql } from '../db/sql.js';
import { UserEntity, type User } from '../users/entity.js';
import { SessionEntity, type Session } from './entity.js';

/** The session's columns, as its entity names them: they come back as `session.<column>` beside the user's own. */
const SESSION_COLUMNS = Object.entries(SessionEntity.options.columns).map(([property, column]) => column?.name ?? property);
const SESSION_PREFIX = 'session.';
/** PostgreSQL: a session and its user in one read (one round trip), found by the session's key. */
const SESSION_AND_USER = sql(
  `SELECT u.*, ${SESSION_COLUMNS.map((c) => `s.${c} AS "${SESSION_PREFIX}${c}"`).join(', ')}
   FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
);
/** SQLite: two lookups by key, 10 µs in all, where the join above takes 20 (it builds the user's columns three times slower). */
const SESSION_BY_ID = sql('SELECT * FROM sessions WHERE id = $1');
const USER_BY_ID = sql('SELECT * FROM users WHERE id = $1');

type Row = Record<string, unknown>;

/** The raw rows of a session and of the token's user, as `hydrate` takes them (none unless both exist). */
async function sessionAndUserRows(db: Database, sessionId: string, userId: string): Promise<{ session: Row; user: Row } | undefined> {
  if (!isPostgres(db.manager)) {
    const [[session], [user]] = await Promise.all([read<Row>(db, SESSION_BY_ID, [sessionId]), read<Row>(db, USER_BY_ID, [userId])]);
    return session && user ? { session, user } : undefined;
  }
  const [row] = await read<Row>(db, SESSION_AND_USER, [sessionId]);
  if (!row) return undefined;
  const session: Row = {};
  const user: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(SESSION_PREFIX)) session[key.slice(SESSION_PREFIX.length)] = value;
    else user[key] = value;
  }
  return { session, user };
}

/**
 * The session and the user it belongs to, hydrated as TypeORM would, read with prepared statements
 * (every signed-in request reads these two rows); undefined unless both exist.
 */
export async function sessionAndUser(
  db: Database,
  sessionId: string,
  userId: string,
): Promise<{ session: Session; user: User } | undefined> {
  const rows = await sessionAndUserRows(db, sessionId, userId);
  return rows && { session: hydrate(db, SessionEntity, rows.session), user: hydrate(db, UserEntity, rows.user) };
}

/** Deletes the user's sessions that expired before `now`, in `em`'s transaction. */
export async function deleteExpiredSessions(em: EntityManager, userId: string, now: Date): Promise<void> {
  await em
    .createQueryBuilder()
    .delete()
    .from(SessionEntity)
    .where('user_id = :userId AND expires_at < :now', { userId, now: dateParam(em, now) })
    .execute();
}

/** The push devices sessions subscribed (push/entity.ts), by table: auth sits below push, and a session's devices end with it. */
const DELETE_DEVICES_OF_SESSION = sql('DELETE FROM push_subscriptions WHERE session_id = $1');
const DELETE_DEVICES_OF_USER = sql('DELETE FROM push_subscriptions WHERE user_id = $1 AND session_id IS NOT NULL');
const DELETE_DEVICES_OF_USER_BUT = sql('DELETE FROM push_subscriptions WHERE user_id = $1 AND session_id IS NOT NULL AND session_id <> $2');
const HAND_DEVICES_OVER = sql('UPDATE push_subscriptions SET session_id = $2 WHERE session_id = $1');

/** Revokes, at `now`, the user's sessions not revoked yet, but `exceptId`, and deletes their push devices. */
export async function revokeSessionsOf(em: EntityManager, userId: string, now: Date, exceptId?: string): Promise<void> {
  const query = em
    .createQueryBuilder()
    .update(SessionEntity)
    .set({ revokedAt: now })
    .where('user_id = :userId AND revoked_at IS NULL', { userId });
  if (exceptId) query.andWhere('id <> :exceptId', { exceptId });
  await query.execute();
  if (exceptId) await run(em, DELETE_DEVICES_OF_USER_BUT, [userId, exceptId]);
  else await run(em, DELETE_DEVICES_OF_USER, [userId]);
}

/** Revokes one session at `now` unless it is revoked already, and deletes its push devices. */
export async function revokeOne(em: EntityManager, sessionId: string, now: Date): Promise<void> {
  await em
    .createQueryBuilder()
    .update(SessionEntity)
    .set({ revokedAt: now })
    .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
    .execute();
  await run(em, DELETE_DEVICES_OF_SESSION, [sessionId]);
}

/** Moves the push devices of session `fromId` to session `toId`: the same browser goes on in a new session. */
export async function handDevicesOver(em: EntityManager, fromId: string, toId: string): Promise<void> {
  await run(em, HAND_DEVICES_OVER, [fromId, toId]);
}

/** Records that the session was used at `now`, unless that is recorded already since `before`. */
export async function markSeen(em: EntityManager, sessionId: string, now: Date, before: Date): Promise<void> {
  await em
    .createQueryBuilder()
    .update(SessionEntity)
    .set({ lastSeenAt: now })
    .where('id = :id AND last_seen_at < :before', { id: sessionId, before: dateParam(em, before) })
    .execute();
}

/**
 * Whether a sign-in with `userAgent` comes from a device the user has no session from (live or
 * ended, until expired sessions are cleared): never for their first session.
 */
export async function isNewDevice(em: EntityManager, userId: string, userAgent: string | null): Promise<boolean> {
  const sessions = await em.find(SessionEntity, { where: { userId }, select: { id: true, userAgent: true }, take: 500 });
  return sessions.length > 0 && !sessions.some((s) => s.userAgent === userAgent);
}
