import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type Reply, type TestServer, type TestUser } from './server.js';

/**
 * A server with a built site as the shared pages' tests need it (sharing/preview*.test.ts): the
 * shape of the built index.html, the build's note of the shared pages' CSS, and the site's card
 * image; and readers of the pages it sends.
 */
export const PUBLIC_URL = 'http://share.giftlink.test';
/** The shape of the built index.html (renderer/index.html after Vite). */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <meta name="description" content="Giftlink: receive gifts from people who love you." />
    <title>Giftlink</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/boot-abc123.js">
    <style>.whole-stylesheet{color:red}</style>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

interface PageServer {
  server: TestServer;
  close(): Promise<void>;
}

async function startPageServer(): Promise<PageServer> {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
  // As renderer/sharedPageCss.ts writes it at build time.
  fs.mkdirSync(path.join(webDir, '.vite'));
  fs.writeFileSync(
    path.join(webDir, '.vite', 'shared-page.json'),
    JSON.stringify({ stylesheet: '/assets/style-abc123.css', criticalCss: '.link-hero{color:blue}' }),
  );
  fs.copyFileSync(path.join(import.meta.dirname, '../../../renderer/public/og-card.png'), path.join(webDir, 'og-card.png'));
  const server = await startTestServer({ WEB_DIR: webDir, PUBLIC_URL });
  return {
    server,
    close: async () => {
      await server.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    },
  };
}

/** A test file's page server and what its tests do with it. */
export interface PageSite {
  readonly server: TestServer;
  /** A page as a chat app fetches it (or a browser, with `userAgent`). */
  fetchPage(p: string, userAgent?: string): Promise<{ res: Response; html: string }>;
  /** Creates `who`'s link with `details`. */
  create(who: TestUser, details: Record<string, unknown>): Promise<Reply<{ id: string }>>;
}

/** The page server of the calling test file: started before its tests, closed after them. */
export function usePageServer(): PageSite {
  let started: PageServer | undefined;
  beforeAll(async () => {
    started = await startPageServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  const server = () => {
    if (!started) throw new Error('The page server starts before the tests (usePageServer at the top of the file).');
    return started.server;
  };
  return {
    get server() {
      return server();
    },
    fetchPage: (p, userAgent) => fetchPage(server(), p, userAgent),
    create: (who, details) => server().request<{ id: string }>('POST', '/links/create', { token: who.token, body: { details } }),
  };
}

export const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const UNFURLERS = {
  Slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  X: 'Twitterbot/1.0',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  iMessage: 'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
};

/** A page as a chat app fetches it (or a browser, with `userAgent`). */
export async function fetchPage(
  server: TestServer,
  p: string,
  userAgent: string = UNFURLERS.iMessage,
): Promise<{ res: Response; html: string }> {
  const res = await fetch(server.url + p, { headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': userAgent } });
  return { res, html: await res.text() };
}

export const decode = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (e[0] !== '#') return named[e.toLowerCase()];
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });

/** Every `<meta name|property=… content=…>` of the page, decoded, plus the <title>. */
export function headOf(html: string): Record<string, string[]> {
  const head: Record<string, string[]> = {};
  for (const m of html.matchAll(/<meta\s+(?:name|property)="([^"]+)"\s+content="([^"]*)"\s*\/?>/g)) (head[m[1]] ??= []).push(decode(m[2]));
  head.title = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => decode(m[1]));
  return head;
}

/** The one value of each tag: a page must not carry two titles or two descriptions. */
export function cardOf(html: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headOf(html)).map(([key, values]) => {
      expect(values, key).toHaveLength(1);
      return [key, values[0]];
    }),
  );
}

/** What the page's `#root` holds before any script runs (the server's static markup). */
export function rootOf(html: string): string {
  const start = html.indexOf('<div id="root">');
  expect(start).toBeGreaterThanOrEqual(0);
  // Up to the loader the server adds after the markup (http/shared-page.ts), or the end of the body.
  const loader = html.indexOf('<script>', start);
  return html.slice(start, loader >= 0 ? loader : html.lastIndexOf('</body>'));
}

/** The text of some markup, as a browser shows it (tags dropped, entities decoded). */
export const textOf = (markup: string) =>
  decode(markup.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
