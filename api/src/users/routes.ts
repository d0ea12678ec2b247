import Router from '@koa/router';
import { setSessionCookie, userAgentOf } from '../auth/session.js';
import { changePassword } from '../commands/change-password.js';
import type { Deps } from '../deps.js';
import { actingUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { presentPrivateUser, presentUserFor } from './presenter.js';
import { confirmSignInChange, findUser, updateUser } from './service.js';
import { spend } from '../limits/rate-limits.js';
import { extendPausedLinks } from '../links/expiry.js';
import type { User } from './entity.js';
import { setGiftsPaused } from './pause.js';

export function userRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();
  // Checking the current password is guessing it: limited per account like login attempts.
  const passwordChecks = deps.limits.limiter('sign-in-change', deps.config.authRateLimit, deps.config.authRateWindowSeconds);

  serve(router, 'GET /api/users', [authenticate], async (ctx, { query }) => {
    const user = await findUser(deps.db, query);
    ctx.body = presentUserFor(ctx.state.user, user, deps.clock());
  });

  serve(router, 'GET /api/users/getId/:username', [authenticate], async (ctx, { params }) => {
    const user = await findUser(deps.db, { username: params.username });
    ctx.body = { userId: user.id };
  });

  serve(router, 'PATCH /api/users/:id', [authenticate], async (ctx, { params, body }) => {
    const { id: userId } = actingUser(ctx, { userId: params.id }, { userId: body.userId });
    const { password, currentPassword, giftsPaused, ...profile } = body;
    await confirmSignInChange(deps.db, userId, { email: profile.email, password, currentPassword }, () =>
      spend(passwordChecks, userId, undefined, (ms) => ctx.set('Retry-After', String(Math.max(1, Math.ceil(ms / 1000))))),
    );
    if (!password) {
      const user = await updateUser(deps.db, userId, profile);
      ctx.body = presentPrivateUser(await pauseAfterEdits(deps, user, giftsPaused), deps.clock());
      return;
    }
    // Every earlier session is over, sockets too; this client goes on with a new one.
    const newSession = { ttlHours: deps.config.tokenTtlHours, userAgent: userAgentOf(ctx), replaces: ctx.state.session?.id };
    const { user, session } = await changePassword(deps, userId, { ...profile, password }, newSession);
    ctx.set('x-auth-token', await setSessionCookie(deps, ctx, session));
    ctx.body = presentPrivateUser(await pauseAfterEdits(deps, user, giftsPaused), deps.clock());
  });

  return router;
}

/**
 * Pauses or resumes the user's gifts once their other edits are saved (a refused edit changes
 * nothing); a resume gives their open links the time the pause took. Answers the user as it now is.
 */
async function pauseAfterEdits(deps: Deps, user: User, paused: boolean | undefined): Promise<User> {
  if (paused === undefined) return user;
  return deps.db.transaction(async (em) => {
    const now = deps.clock();
    const { resumedFrom } = await setGiftsPaused(em, user.id, paused, now);
    if (resumedFrom) await extendPausedLinks(em, user.id, resumedFrom, now);
    return { ...user, giftsPausedAt: paused ? (user.giftsPausedAt ?? now) : null };
  });
}
