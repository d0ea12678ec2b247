import type { Context, Next, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { User } from '../users/entity.js';

export interface AppState {
  requestId: string;
  log: Logger;
  /** The authenticated user, set by `authenticate` / `optionalAuth`. */
  user?: User;
  /** How the user authenticated: cookie-authenticated writes must come from our own origin. */
  authVia?: 'header' | 'cookie';
  /** Input parsed by `validate()`. */
  input?: unknown;
}

export type AppContext = ParameterizedContext<AppState>;
export type Middleware = (ctx: AppContext, next: Next) => Promise<unknown>;
export type { Context };
