import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { SharedPageAssets } from '../../contract/share.js';
import { markVisitor } from '../auth/visitor.js';
import type { Config } from '../config.js';
import type { AppContext, Middleware } from './context.js';
import { contentHash } from './etag.js';
import { allowScript, sharedTemplate, withMarkup, type SharedTemplate } from './shared-page.js';

/** Paths that are never the website, whatever the client accepts. */
const NEVER_WEB = /^\/(api|uploads|socket\.io|healthz|readyz|metrics|catalog)(\/|$)|^\/(links|wishlists)\/[^/]+\/image$/;

/**
 * The extra <head> of a page (its <title> and meta tags, already escaped), or undefined for a page
 * that has none; see sharing/preview.ts. It replaces index.html's own <title> and description.
 */
export type PageHead = (path: string, visitor: boolean) => Promise<PageParts | undefined>;

/** A page's own parts: its extra <head>, and static markup for `#root` (escaped) shown until the app renders. */
export interface PageParts {
  /** Replaces index.html's <title> and description; without it they stay. */
  head?: string;
  root?: string;
}

/**
 * A file's stat, taken on the main thread: a stat of a file in the page cache is a microsecond or
 * two, while a stat on libuv's pool costs a thread hop per request.
 */
function statNow(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** A text file as read from disk (undefined while missing), read again only when it changes (a rebuild). */
function textFile(file: string): () => Promise<string | undefined> {
  let cached: { key: string; text: string } | undefined;
  return async () => {
    const stat = statNow(file);
    if (!stat) return undefined;
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (cached?.key !== key) cached = { key, text: await fs.promises.readFile(file, 'utf8') };
    return cached.text;
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

/** How long a file of the site found unchanged is served without looking at the disk again: a rebuild shows within this. */
const RECHECK_MS = 10;

/** Files worth compressing (text); scripts/precompress.ts writes `.br` and `.gz` beside them at build time. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt|xml|webmanifest|ico|wasm)$/i;
/** A hashed asset (`/assets/*`) never changes under its name: cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages, the service worker (a new one must reach every tab) and the manifest: revalidated each time. */
const REVALIDATED = /\.html$|^\/sw\.js$|^\/manifest\.webmanifest$/;
/** Other files of the site (favicon, images): an hour, then revalidated with their ETag. */
const SHORT = 'public, max-age=3600';

type Coding = 'br' | 'gzip';
interface StaticFile {
  key: string;
  type: string;
  etag: string;
  identity: Buffer;
  encoded: Partial<Record<Coding, Buffer>>;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };
/** Without the build's files: quick settings (a first request waits for these), not precompress.ts's best. */
const compressors: Record<Coding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
  gzip: (data) => gzip(data, { level: 6 }),
};

/** The build's precompressed sibling when it is current, else compressed here once (a build without precompress.ts). */
async function encodedVariant(file: string, mtimeMs: number, data: Buffer, coding: Coding): Promise<Buffer | undefined> {
  const sibling = file + SUFFIX[coding];
  const stat = await fs.promises.stat(sibling).catch(() => undefined);
  const encoded = stat && stat.mtimeMs >= mtimeMs ? await fs.promises.readFile(sibling) : await compressors[coding](data);
  return encoded.length < data.length ? encoded : undefined;
}

/**
 * The site's files, read (and their encodings loaded) once and kept in memory, read again only when
 * a file changes on disk (a rebuild). `load` answers undefined for anything that is not a file.
 */
function staticFiles() {
  // Each file with when it was last found unchanged on disk: a file asked for again within
  // RECHECK_MS is not stat'ed again (a stat costs more than the answer it guards).
  const cache = new Map<string, { file: Promise<StaticFile>; checkedAt: number }>();
  const read = async (file: string, key: string, mtimeMs: number): Promise<StaticFile> => {
    const identity = await fs.promises.readFile(file);
    const encoded: StaticFile['encoded'] = {};
    if (COMPRESSIBLE.test(file)) {
      for (const coding of ['br', 'gzip'] as const) encoded[coding] = await encodedVariant(file, mtimeMs, identity, coding);
    }
    return { key, type: path.extname(file), etag: contentHash(identity), identity, encoded };
  };
  return async (file: string): Promise<StaticFile | undefined> => {
    const now = performance.now();
    const cached = cache.get(file);
    if (cached && now - cached.checkedAt < RECHECK_MS) return cached.file;
    const stat = statNow(file);
    if (!stat?.isFile()) {
      cache.delete(file);
      return undefined;
    }
    const key = `${stat.mtimeMs}:${stat.size}`;
    if (cached && (await cached.file).key === key) {
      cached.checkedAt = now;
      return cached.file;
    }
    const loading = read(file, key, stat.mtimeMs);
    cache.set(file, { file: loading, checkedAt: now });
    loading.catch(() => cache.delete(file));
    return loading;
  };
}

/** The encoding to answer with: brotli, else gzip, when the client accepts it (q > 0) and we have it. */
export function pickEncoding(acceptEncoding: string, available: readonly Coding[]): Coding | undefined {
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name) q.set(name.trim(), weight ? Number(weight[1]) : 1);
  }
  const accepts = (coding: string) => (q.get(coding) ?? (coding === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).find((coding) => available.includes(coding) && accepts(coding));
}

/** The site file a URL path names, or undefined for a path that would leave the root or names a dotfile. */
function sitePath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split('/').some((part) => part.startsWith('.'))) return undefined;
  const file = path.join(root, path.normalize(decoded));
  return file.startsWith(root + path.sep) ? file : undefined;
}

/**
 * Answers a file of the site as built: the precompressed encoding the client accepts (nothing is
 * compressed per request), a strong ETag per encoding and a 304 for a matching If-None-Match.
 */
function answerFile(ctx: AppContext, file: StaticFile, cacheControl: string): void {
  const coding = pickEncoding(
    ctx.get('accept-encoding'),
    Object.keys(file.encoded).filter((c): c is Coding => !!file.encoded[c as Coding]),
  );
  ctx.status = 200;
  ctx.type = file.type;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', `"${file.etag}${coding ? `-${coding}` : ''}"`);
  if (COMPRESSIBLE.test(file.type)) ctx.vary('Accept-Encoding');
  // koa-compress is for API answers: it leaves an encoded body alone, and must not touch an identity one.
  (ctx as AppContext & { compress?: boolean }).compress = false;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (coding) ctx.set('Content-Encoding', coding);
  ctx.body = coding ? file.encoded[coding] : file.identity;
}

/**
 * Serves the built website from the API's own origin, each file from memory in the precompressed
 * encoding the client accepts, with a strong ETag (304 on If-None-Match): hashed assets cached for a
 * year, other files briefly, and index.html (always revalidated) for any page. Several page paths share a prefix with API
 * calls (/invites/accept/{id}, /messages/{id}), so a GET whose Accept asks for HTML gets the page
 * at once; any other GET or HEAD goes on to the API first, and gets the page only when no route
 * answered it (an unknown path: `GET /` from curl, or from a client that accepts anything). Never the
 * page: `/api`, `/socket.io`, `/healthz`, `/readyz`, uploads, catalogue images, share images, files under
 * `/assets/` (a missing asset stays a 404, so a stale script never runs as HTML), and any other
 * missing file (a path with an extension) unless a browser navigates to it.
 */
export function webMiddleware(config: Config, pageHead?: PageHead): Middleware {
  const root = path.resolve(config.webDir);
  const index = path.join(root, 'index.html');
  const readIndex = textFile(index);
  const readAssets = textFile(path.join(root, '.vite', 'shared-page.json'));
  const load = staticFiles();
  // The shared pages' template, made again only when the build changes.
  let template: { index: string; assets: string | undefined; made: SharedTemplate } | undefined;
  const readTemplate = async (indexHtml: string): Promise<SharedTemplate> => {
    const assets = await readAssets();
    if (template?.index !== indexHtml || template.assets !== assets) {
      template = {
        index: indexHtml,
        assets,
        made: sharedTemplate(indexHtml, assets ? (JSON.parse(assets) as SharedPageAssets) : undefined),
      };
    }
    return template.made;
  };

  const serveIndex = async (ctx: AppContext) => {
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The website is not built yet: run `npm run build:web`.';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    const visitor = markVisitor(ctx, config.cookieSecure);
    // Link and wishlist pages carry their preview (Open Graph) tags, for chat apps that unfurl them.
    const parts = await pageHead?.(ctx.path, visitor);
    if (parts === undefined) {
      const file = await load(index);
      if (file) return answerFile(ctx, file, 'no-cache');
      return;
    }
    const indexHtml = (await readIndex()) ?? '';
    // A page with its own markup (a link or a wishlist) starts from the shared pages' template.
    const markup = parts.root;
    const shared = markup ? await readTemplate(indexHtml) : undefined;
    if (shared?.scriptSource)
      ctx.set('Content-Security-Policy', allowScript(ctx.response.get('Content-Security-Policy'), shared.scriptSource));
    ctx.status = 200;
    ctx.type = 'html';
    const head = (html: string) => (parts.head === undefined ? html : withHead(html, parts.head));
    ctx.body = shared && markup ? withMarkup(head(shared.html), markup) : head(indexHtml);
  };

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || NEVER_WEB.test(ctx.path)) return next();
    const asset = ctx.path.startsWith('/assets/');
    const fileLike = ctx.path !== '/' && path.extname(ctx.path) !== '';
    const file = fileLike ? sitePath(root, ctx.path) : undefined;
    // Not a file of the site: maybe an API path with a dot in it.
    const found = file ? await load(file) : undefined;
    if (found) return answerFile(ctx, found, asset ? IMMUTABLE : REVALIDATED.test(ctx.path) ? 'no-cache' : SHORT);
    if (asset) return next();
    if ((ctx.get('accept') ?? '').includes('text/html')) return serveIndex(ctx);
    // A missing file (/favicon.ico, /x.js) is a 404 for anyone but a browser navigating to it.
    if (fileLike) return next();
    await next();
    // No route answered (Koa's own 404, no body): the path is no API's, so it is a page.
    if (ctx.status === 404 && ctx.body == null) await serveIndex(ctx);
  };
}
