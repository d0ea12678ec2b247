import fs from 'node:fs';
import path from 'node:path';
import send from 'koa-send';
import type { Config } from '../config.js';
import type { AppContext, Middleware } from './context.js';

/** Paths that are never the website, whatever the client accepts. */
const NEVER_WEB = /^\/(api|uploads|socket\.io|healthz|catalog)(\/|$)|^\/(links|wishlists)\/[^/]+\/image$/;

/**
 * The extra <head> of a page (its <title> and meta tags, already escaped), or undefined for a page
 * that has none; see sharing/preview.ts. It replaces index.html's own <title> and description.
 */
export type PageHead = (path: string) => Promise<string | undefined>;

/** index.html as read from disk, read again only when the file changes (a rebuild). */
function indexFile(file: string): () => Promise<string> {
  let cached: { key: string; html: string } | undefined;
  return async () => {
    const stat = await fs.promises.stat(file);
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (cached?.key !== key) cached = { key, html: await fs.promises.readFile(file, 'utf8') };
    return cached.html;
  };
}

/** index.html with `head` in place of its <title> and description (before </head>, else after the doctype). */
export function withHead(html: string, head: string): string {
  const rest = html.replace(/<title\b[^>]*>[\s\S]*?<\/title>\s*/i, '').replace(/<meta\s[^>]*name=["']?description["']?[^>]*>\s*/i, '');
  const close = rest.search(/<\/head>/i);
  if (close >= 0) return `${rest.slice(0, close).trimEnd()}\n    ${head}\n  ${rest.slice(close)}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(rest);
  const at = doctype ? doctype[0].length : 0;
  return `${rest.slice(0, at)}\n${head}\n${rest.slice(at)}`;
}

/**
 * Serves the built website from the API's own origin: hashed assets cached for a year, other files
 * briefly, and index.html (never cached) for any page. Several page paths share a prefix with API
 * calls (/invites/accept/{id}, /messages/{id}), so a GET whose Accept asks for HTML gets the page
 * at once; any other GET or HEAD goes on to the API first, and gets the page only when no route
 * answered it (an unknown path: `GET /` from curl, or from a client that accepts anything). Never the
 * page: `/api`, `/socket.io`, `/healthz`, uploads, catalogue images, share images, files under
 * `/assets/` (a missing asset stays a 404, so a stale script never runs as HTML), and any other
 * missing file (a path with an extension) unless a browser navigates to it.
 */
export function webMiddleware(config: Config, pageHead?: PageHead): Middleware {
  const root = config.webDir;
  const index = path.join(root, 'index.html');
  const readIndex = indexFile(index);

  const serveIndex = async (ctx: AppContext) => {
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The website is not built yet: run `npm run build:web`.';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    // Link and wishlist pages carry their preview (Open Graph) tags, for chat apps that unfurl them.
    const head = await pageHead?.(ctx.path);
    if (head === undefined) {
      await send(ctx, 'index.html', { root });
      return;
    }
    ctx.status = 200;
    ctx.type = 'html';
    ctx.body = withHead(await readIndex(), head);
  };

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || NEVER_WEB.test(ctx.path)) return next();
    const asset = ctx.path.startsWith('/assets/');
    const fileLike = ctx.path !== '/' && path.extname(ctx.path) !== '';
    if (fileLike) {
      try {
        await send(ctx, ctx.path, {
          root,
          maxage: asset ? 365 * 24 * 3600 * 1000 : 3600 * 1000,
          immutable: asset,
        });
        return;
      } catch {
        // not a file of the site: maybe an API path with a dot in it
      }
    }
    if (asset) return next();
    if ((ctx.get('accept') ?? '').includes('text/html')) return serveIndex(ctx);
    // A missing file (/favicon.ico, /x.js) is a 404 for anyone but a browser navigating to it.
    if (fileLike) return next();
    await next();
    // No route answered (Koa's own 404, no body): the path is no API's, so it is a page.
    if (ctx.status === 404 && ctx.body == null) await serveIndex(ctx);
  };
}
