import type { Next, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { Session } from '../auth/entity.js';
import type { User } from '../users/entity.js';

export interface AppState {
  requestId: string;
  log: Logger;
  /** The authenticated user, set for every request by `identify` (http/auth.ts). */
  user?: User;
  /** The session the request's token names (auth/entity.ts); set with `user`. */
  session?: Session;
  /** How the user authenticated: cookie-authenticated writes must come from our own origin. */
  authVia?: 'header' | 'cookie';
  /** Set when a cookie came with a write from another origin: the request stays anonymous. */
  crossSite?: boolean;
  /** Input parsed by `validate()`. */
  input?: unknown;
}

export type AppContext = ParameterizedContext<AppState>;
export type Middleware = (ctx: AppContext, next: Next) => Promise<unknown>;
