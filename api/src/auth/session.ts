import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { DESKTOP_VERSION_HEADER } from '../../contract/desktop.js';
import type { Deps } from '../deps.js';
import type { AppContext } from '../http/context.js';
import type { User } from '../users/entity.js';
import { SessionEntity, type Session } from './entity.js';
import {
  deleteExpiredSessions,
  handDevicesOver,
  isNewDevice,
  markSeen,
  revokeOne,
  revokeSessionsOf,
  sessionAndUser,
} from './session-store.js';
import { SESSION_COOKIE, type Tokens } from './tokens.js';
import { clearVisitor } from './visitor.js';
import { enqueueAlert } from '../alerts/outbox.js';

/** A session's `lastSeenAt` is written at most this often: one small conditional write per session per minute. */
export const LAST_SEEN_EVERY_MS = 60_000;

export interface NewSession {
  /** How long the session (and its token and cookie) lasts: TOKEN_TTL_HOURS. */
  ttlHours: number;
  userAgent?: string | null;
  /** The session this one goes on from in the same browser (a password change): its push devices move over. */
  replaces?: string;
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
  if (await isNewDevice(em, userId, session.userAgent)) await enqueueAlert(em, { userId, kind: 'new_sign_in' });
  await deleteExpiredSessions(em, userId, session.createdAt);
  await em.insert(SessionEntity, { ...session });
  if (options.replaces) await handDevicesOver(em, options.replaces, session.id);
  return session;
}

/** Revokes the user's live sessions, all of them or all but `exceptId`, and deletes the push devices they subscribed. */
export async function revokeUserSessions(em: EntityManager, userId: string, exceptId?: string): Promise<void> {
  await revokeSessionsOf(em, userId, new Date(), exceptId);
}

/** Revokes one session (logout) and deletes its push devices. Revoking an already revoked session changes nothing. */
export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await db.transaction((em) => revokeOne(em, sessionId, new Date()));
}

/** The token of a session: it names the session and expires with it. */
export function sessionToken(tokens: Tokens, session: Session): Promise<string> {
  return tokens.sign({ userId: session.userId, sessionId: session.id, expiresAt: session.expiresAt });
}

/**
 * The one authentication path, for HTTP requests (http/auth.ts) and socket handshakes
 * (realtime/socket.ts) alike: a correctly signed token whose session exists, belongs to the
 * token's user, is not revoked and has not expired. Anything else is undefined.
 */
export async function authenticateToken(deps: Pick<Deps, 'db' | 'tokens' | 'log'>, token: string): Promise<Authenticated | undefined> {
  const claims = await deps.tokens.verify(token);
  if (!claims) return undefined;
  // Every signed-in request reads these two rows: prepared statements, hydrated as TypeORM would (session-store.ts).
  const { db } = deps;
  const found = await sessionAndUser(db, claims.sessionId, claims.userId);
  if (!found) return undefined;
  const { session, user } = found;
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
      (em) => markSeen(em, session.id, now, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
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
