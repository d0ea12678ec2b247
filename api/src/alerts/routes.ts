import { escapeHtml } from '../../contract/html.js';
import Router from '@koa/router';
import {
  ALERT_LABELS,
  ALERT_UNSUBSCRIBE,
  ALERT_UNSUBSCRIBE_CONFIRM,
  ALERT_UNSUBSCRIBE_INVALID,
  ALERT_UNSUBSCRIBED,
} from '../../contract/texts.js';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import { currentUser, type AuthMiddleware } from '../http/auth.js';
import type { AppState } from '../http/context.js';
import { serve } from '../http/route.js';
import { alertPreferences, emailEnabled, setAlertPreferences, unsubscribeEmail } from './preferences.js';
import { readUnsubscribeToken, unsubscribePath } from './unsubscribe.js';

/** A small page of its own (no app): the unsubscribe link's, opened from an email. */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5">` +
  `<h1 style="font-size:1.25rem">${escapeHtml(title)}</h1>${body}</body></html>`;

/** The user's alert switches, and the emails' one-click unsubscribe (no login: the link's token names user and kind). */
export function alertRoutes(deps: Deps, { authenticate }: AuthMiddleware): Router<AppState> {
  const router = new Router<AppState>();

  serve(router, 'GET /api/alerts/preferences', [authenticate], async (ctx) => {
    ctx.body = await alertPreferences(deps.db, currentUser(ctx).id);
  });

  serve(router, 'PUT /api/alerts/preferences', [authenticate], async (ctx, { body }) => {
    ctx.body = await setAlertPreferences(deps.db, currentUser(ctx).id, body);
  });

  // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` here. The page's button too: a browser
  // (asking for HTML) is sent back to the page, which then says it is done.
  serve(router, 'POST /api/alerts/unsubscribe', async (ctx, { query }) => {
    const named = readUnsubscribeToken(deps.tokens, query.t, deps.clock());
    if (!named) throw badRequest(ALERT_UNSUBSCRIBE_INVALID, 'invalid_unsubscribe_link');
    await unsubscribeEmail(deps.db, named.userId, named.kind);
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.status = 303;
      ctx.redirect(unsubscribePath(query.t));
      return;
    }
    ctx.body = { unsubscribed: true, kind: named.kind };
  });

  // A GET changes nothing (mail scanners open links): it shows a button that POSTs, or that it is done.
  serve(router, 'GET /api/alerts/unsubscribe', async (ctx, { query }) => {
    const named = readUnsubscribeToken(deps.tokens, query.t, deps.clock());
    // Refused as every route refuses (`{ error, message }`), the page only for a good link.
    if (!named) throw badRequest(ALERT_UNSUBSCRIBE_INVALID, 'invalid_unsubscribe_link');
    ctx.type = 'text/html';
    const label = `<p>${escapeHtml(ALERT_LABELS[named.kind])}</p>`;
    if (!(await emailEnabled(deps.db, named.userId, named.kind))) {
      ctx.body = page(ALERT_UNSUBSCRIBE_CONFIRM, `${label}<p>${escapeHtml(ALERT_UNSUBSCRIBED)}</p>`);
      return;
    }
    ctx.body = page(
      ALERT_UNSUBSCRIBE_CONFIRM,
      `${label}<form method="post" action="${escapeHtml(unsubscribePath(query.t))}">` +
        `<button type="submit" style="font-size:1rem;padding:.5rem 1rem">${escapeHtml(ALERT_UNSUBSCRIBE)}</button></form>`,
    );
  });

  return router;
}
