import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import type Router from '@koa/router';
import type { AuthMiddleware } from './auth.js';
import type { AppState, Middleware } from './context.js';
import { documentedRoutes, openApiDocument } from './openapi.js';

const require = createRequire(import.meta.url);
// The package exports no path to its browser bundle any more: it sits beside the entry point (dist/index.js).
const scalarStandalone = (): string => path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/** The reference page: Scalar's standalone viewer, served from our own origin (works offline, fits the CSP). */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Giftlink API reference</title>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/api/docs/scalar.js"></script>
    <script src="/api/docs/start.js"></script>
  </body>
</html>
`;

/**
 * Starts the viewer without an inline script (the CSP allows scripts from our origin only), and
 * with nothing that reaches Scalar's servers: no web fonts, no telemetry, no AI agent (which, on
 * localhost, would fetch its registry), and no developer toolbar (shown on localhost otherwise).
 */
const START = `Scalar.createApiReference('#app', {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
});
`;

/**
 * `GET /api/openapi.json` (the OpenAPI 3.1 document built from the routes' zod schemas) and
 * `GET /api/docs` (a readable reference of it). Both are public: they describe what any client
 * can already try. The document and the viewer's script are read once, on first use.
 */
export function apiDocs(routers: readonly Router<AppState>[], auth: AuthMiddleware): Middleware {
  let document: string | undefined;
  let viewer: { identity: Buffer; gzip: Buffer } | undefined;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    switch (ctx.path) {
      case '/api/openapi.json':
        document ??= JSON.stringify(openApiDocument(documentedRoutes(routers, auth)));
        ctx.type = 'application/json';
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = document;
        return;
      case '/api/docs':
        ctx.type = 'html';
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = PAGE;
        return;
      case '/api/docs/scalar.js':
        // 4.9 MB: compressed once (1.4 MB gzip), not on every request.
        viewer ??= gzipOnce(fs.readFileSync(scalarStandalone()));
        ctx.type = 'application/javascript';
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.vary('Accept-Encoding');
        if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
          ctx.set('Content-Encoding', 'gzip');
          ctx.body = viewer.gzip;
        } else ctx.body = viewer.identity;
        return;
      case '/api/docs/start.js':
        ctx.type = 'application/javascript';
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = START;
        return;
      default:
        return next();
    }
  };
}

function gzipOnce(identity: Buffer): { identity: Buffer; gzip: Buffer } {
  return { identity, gzip: zlib.gzipSync(identity) };
}
