import { VISITOR_COOKIE } from '../../contract/visitor.js';
import type { AppContext } from '../http/context.js';
import { credentialsOf } from './credentials.js';

const options = (secure: boolean) => ({ httpOnly: false, sameSite: 'lax' as const, secure, path: '/', overwrite: true });

/**
 * On a page of the website: tells the page whether the browser opening it holds a session
 * (VISITOR_COOKIE, contract/visitor.ts). A session cookie that has expired still counts as one:
 * the page then asks, as it would without the hint. Answers whether the browser is a visitor.
 */
export function markVisitor(ctx: AppContext, secure: boolean): boolean {
  ctx.vary('Cookie');
  if (secure) ctx.cookies.secure = true;
  if (!credentialsOf(ctx.req.headers)) {
    ctx.cookies.set(VISITOR_COOKIE, '1', options(secure));
    return true;
  }
  if (ctx.cookies.get(VISITOR_COOKIE)) clearVisitor(ctx, secure);
  return false;
}

/** Sign-in: the browser holds a session from now on. */
export function clearVisitor(ctx: AppContext, secure: boolean): void {
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(VISITOR_COOKIE, null, options(secure));
}
