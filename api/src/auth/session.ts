import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { DESKTOP_VERSION_HEADER } from '../../contract/desktop.js';
import { dateParam } from '../db/dates.js';
import { hydrate, isPostgres, read, sql } from '../db/sql.js';
import type { Deps } from '../deps.js';
import type { AppContext } from '../http/context.js';
import { UserEntity, type User } from '../users/entity.js';
import { SessionEntity, type Session } from './entity.js';
import { SESSION_COOKIE, type Tokens } from './tokens.js';
import { clearVisitor } from './visitor.js';

/** A session's `lastSeenAt` is written at most this often: one small conditional write per session per minute. */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface NewSession {
  /** How long the session (and its token and cookie) lasts: TOKEN_TTL_HOURS. */
  ttlHours: number;
  userAgent?: string | null;
}

export interface Authenticated {
  user: User;
  session: Session;
}

/** A new session's row (not yet stored). */
export function newSessionRecord(userId: string, { ttlHours, userAgent }: NewSession, now = new Date()): Session {
  return {
    id: crypto.randomUUID(),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlHours * 3600 * 1000),
    revokedAt: null,
    lastSeenAt: now,
    userAgent: userAgent ? userAgent.slice(0, 255) : null,
  };
}

/** Opens a session for the user inside `em`'s transaction, clearing out their expired ones. */
export async function createSession(em: EntityManager, userId: string, options: NewSession): Promise<Session> {
  const session = newSessionRecord(userId, options);
  await em
    .createQueryBuilder()
    .delete()
    .from(SessionEntity)
    .where('user_id = :userId AND expires_at < :now', { userId, now: dateParam(em, session.createdAt) })
    .execute();
  await em.insert(SessionEntity, { ...session });
  return session;
}

/** Revokes the user's live sessions, all of them or all but `exceptId` (a password change). */
export async function revokeUserSessions(em: EntityManager, userId: string, exceptId?: string): Promise<void> {
  const query = em
    .createQueryBuilder()
    .update(SessionEntity)
    .set({ revokedAt: new Date() })
    .where('user_id = :userId AND revoked_at IS NULL', { userId });
  if (exceptId) query.andWhere('id <> :exceptId', { exceptId });
  await query.execute();
}

/** Revokes one session (logout). Revoking an already revoked session changes nothing. */
export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await db.transaction((em) =>
    em
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: new Date() })
      .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
      .execute(),
  );
}

/** The token of a session: it names the session and expires with it. */
export function sessionToken(tokens: Tokens, session: Session): Promise<string> {
  return tokens.sign({ userId: session.userId, sessionId: session.id, expiresAt: session.expiresAt });
}

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
 * The one authentication path, for HTTP requests (http/auth.ts) and socket handshakes
 * (realtime/socket.ts) alike: a correctly signed token whose session exists, belongs to the
 * token's user, is not revoked and has not expired. Anything else is undefined.
 */
export async function authenticateToken(deps: Pick<Deps, 'db' | 'tokens' | 'log'>, token: string): Promise<Authenticated | undefined> {
  const claims = await deps.tokens.verify(token);
  if (!claims) return undefined;
  // Every signed-in request reads these two rows: prepared statements, hydrated as TypeORM would (db/sql.ts).
  const { db } = deps;
  const rows = await sessionAndUserRows(db, claims.sessionId, claims.userId);
  if (!rows) return undefined;
  const session = hydrate(db, SessionEntity, rows.session);
  const user = hydrate(db, UserEntity, rows.user);
  const now = Date.now();
  if (user.id !== claims.userId || session.userId !== user.id || session.revokedAt || session.expiresAt.getTime() <= now) return undefined;
  // A suspended or closed account has no sessions left (both revoke them); a login racing either is refused here too.
  if (user.suspendedAt || user.closedAt) return undefined;
  if (now - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) await touch(deps, session, new Date(now));
  return { user, session };
}

/** Records that the session was used; a failure here is logged, never a refused request. */
async function touch({ db, log }: Pick<Deps, 'db' | 'log'>, session: Session, now: Date): Promise<void> {
  try {
    await db.transaction(
      (em) =>
        em
          .createQueryBuilder()
          .update(SessionEntity)
          .set({ lastSeenAt: now })
          .where('id = :id AND last_seen_at < :before', {
            id: session.id,
            before: dateParam(em, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
          })
          .execute(),
      // One update and nothing else: it may run again (a signed-in give's group stays without savepoints).
      { replayable: true },
    );
    session.lastSeenAt = now;
  } catch (err) {
    log.error({ err }, 'recording session use failed');
  }
}

/** Added to a stored User-Agent when the desktop app (its version header) signed in without Electron's own mark. */
export const DESKTOP_UA_MARK = 'GiftlinkDesktop/';

/**
 * The client's User-Agent, kept with a new session to tell sessions apart ('Chrome on macOS'). A
 * sign-in from the desktop app (`x-giftlink-version`) is marked as such when its agent does not say so.
 */
export function userAgentOf(ctx: AppContext): string | null {
  const agent = ctx.get('user-agent');
  const version = /^[\w.+-]{1,32}$/.exec(ctx.get(DESKTOP_VERSION_HEADER))?.[0];
  if (version && !/\bElectron\//.test(agent)) return `${DESKTOP_UA_MARK}${version} ${agent}`.trim();
  return agent || null;
}

/**
 * The cookie's options. With an https PUBLIC_URL (`cookieSecure`) the cookie is always Secure, even
 * when TLS ends at a proxy the app was not told to trust (the cookies module would refuse it then).
 */
const cookieOptions = (deps: Deps, ctx: AppContext) => {
  if (deps.config.cookieSecure) ctx.cookies.secure = true;
  return sessionCookie(deps);
};

const sessionCookie = (deps: Deps) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: deps.config.cookieSecure,
  path: '/',
  overwrite: true,
});

/** Answers with the session: sets it as the httpOnly cookie and returns its token (for the body or a header). */
export async function setSessionCookie(deps: Deps, ctx: AppContext, session: Session): Promise<string> {
  const token = await sessionToken(deps.tokens, session);
  ctx.cookies.set(SESSION_COOKIE, token, { ...cookieOptions(deps, ctx), maxAge: Math.max(0, session.expiresAt.getTime() - Date.now()) });
  clearVisitor(ctx, deps.config.cookieSecure);
  return token;
}

/** Opens a new session for the user (login, registration) and sets its cookie; returns its token. */
export async function startSession(deps: Deps, ctx: AppContext, user: User): Promise<string> {
  const options = { ttlHours: deps.config.tokenTtlHours, userAgent: userAgentOf(ctx) };
  const session = await deps.db.transaction((em) => createSession(em, user.id, options));
  return setSessionCookie(deps, ctx, session);
}

/**
 * Logout: revokes the request's session (when it has one) and closes its sockets on every API
 * process, then clears the cookie. The user's other sessions go on.
 */
export async function endSession(deps: Deps, ctx: AppContext): Promise<void> {
  const session = ctx.state.session;
  if (session) {
    await revokeSession(deps.db, session.id);
    await deps.realtime.endSessions(session.userId, (id) => id === session.id);
  }
  ctx.cookies.set(SESSION_COOKIE, null, cookieOptions(deps, ctx));
}
