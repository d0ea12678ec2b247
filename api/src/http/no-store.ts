import type { Middleware } from 'koa';
import type { AppState } from './context.js';

/**
 * Answers to a signed-in request are private to its user: no cache (the browser's, a proxy's)
 * keeps them, unless the route chose its own Cache-Control. Mounted after `identify`, it also
 * covers the error answers of such requests.
 */
export const noStoreWhenSignedIn: Middleware<AppState> = async (ctx, next) => {
  try {
    await next();
  } finally {
    if (ctx.state.session && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  }
};
