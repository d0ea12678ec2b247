import Router from '@koa/router';
import Bowser from 'bowser';
import { SESSION_NOT_FOUND } from '../../contract/texts.js';
import { dateParam } from '../db/dates.js';
import type { Deps } from '../deps.js';
import { notFound } from '../errors.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppContext, AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { SessionEntity, type Session } from './entity.js';
import type { SessionView, SignOutOthersResult } from '../../contract/sessions.js';
import { DESKTOP_UA_MARK, endSession, revokeSession, revokeUserSessions } from './session.js';

/**
 * The signed-in user's sessions: list them, sign out one, or every one but the session
 * asking. Each ending revokes the session row (so its token stops working at once) and then closes
 * its sockets on every API process. Only the user's own live sessions are ever found: another
 * user's session id is a 404, the same as one that never existed.
 */

/** 'Chrome on macOS', 'Giftlink desktop on Windows', 'Safari on iOS', 'Unknown device'. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const os = parsed.os.name || '';
  const desktopApp = userAgent.startsWith(DESKTOP_UA_MARK) || parsed.browser.name === 'Electron';
  const app = desktopApp ? 'Giftlink desktop' : parsed.browser.name || '';
  if (app && os) return `${app} on ${os}`;
  if (app) return app;
  if (os) return `Browser on ${os}`;
  return 'Unknown device';
}

/** The only place a session becomes JSON: no token, no user agent string, no address. */
export function presentSession(session: Session, currentId: string | undefined): SessionView {
  return {
    id: session.id,
    device: deviceOf(session.userAgent),
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    current: session.id === currentId,
  };
}

/** The user's live sessions (not revoked, not expired): the current one first, then the most recently seen. */
export async function liveSessions(deps: Pick<Deps, 'db'>, userId: string, currentId?: string): Promise<Session[]> {
  const em = deps.db.manager;
  const sessions = await em
    .createQueryBuilder(SessionEntity, 's')
    .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.expires_at > :now', { userId, now: dateParam(em, new Date()) })
    .orderBy('s.last_seen_at', 'DESC')
    .addOrderBy('s.created_at', 'DESC')
    .getMany();
  return sessions.sort((a, b) => Number(b.id === currentId) - Number(a.id === currentId));
}

/**
 * Ends one of the user's own live sessions and closes its sockets everywhere. False (nothing
 * changes) when the id is not one of them: another user's, revoked, expired or unknown.
 */
export async function signOutSession(deps: Pick<Deps, 'db' | 'realtime'>, userId: string, sessionId: string): Promise<boolean> {
  const live = await liveSessions(deps, userId);
  if (!live.some((s) => s.id === sessionId)) return false;
  await revokeSession(deps.db, sessionId);
  await deps.realtime.endSessions(userId, (id) => id === sessionId);
  return true;
}

/** Ends every live session of the user but `keepId` (the one asking) and closes their sockets everywhere. */
export async function signOutOthers(deps: Pick<Deps, 'db' | 'realtime'>, userId: string, keepId: string): Promise<number> {
  const others = (await liveSessions(deps, userId)).filter((s) => s.id !== keepId).length;
  await deps.db.transaction((em) => revokeUserSessions(em, userId, keepId));
  await deps.realtime.endSessions(userId, (id) => id !== keepId);
  return others;
}

/** The session the request's token names; `authenticate` has run, so there is one. */
const currentSessionId = (ctx: AppContext): string => {
  currentUser(ctx);
  return ctx.state.session!.id;
};

/** `GET /api/sessions`, `DELETE /api/sessions/{id}`, `POST /api/sessions/sign-out-others`. */
export function sessionListRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/sessions', [authenticate], async (ctx) => {
    const user = currentUser(ctx);
    const current = currentSessionId(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await liveSessions(deps, user.id, current)).map((s) => presentSession(s, current));
  });

  serve(router, 'POST /api/sessions/sign-out-others', [authenticate], async (ctx) => {
    const body: SignOutOthersResult = { signedOut: await signOutOthers(deps, currentUser(ctx).id, currentSessionId(ctx)) };
    ctx.body = body;
  });

  // The current session is signed out as by Logout (its cookie cleared too); the site offers Logout for it.
  serve(router, 'DELETE /api/sessions/:id', [authenticate], async (ctx, { params }) => {
    const user = currentUser(ctx);
    if (params.id === currentSessionId(ctx)) await endSession(deps, ctx);
    else if (!(await signOutSession(deps, user.id, params.id))) throw notFound(SESSION_NOT_FOUND);
    ctx.status = 204;
  });

  return router;
}
