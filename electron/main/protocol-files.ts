// app://giftlink/… → a file of the desktop's renderer build (out/renderer). Pure: the caller says
// which files exist, so the resolution (SPA fallback, traversal refused, MIME types) is tested
// without Electron.
import path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'giftlink';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export function mimeTypeOf(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type AppFile = { status: 200; file: string; mime: string } | { status: 400 | 403 | 404 };

/**
 * Resolves a request URL to a file under `root`. A path naming an existing file serves it; a path
 * without an extension (an in-app route such as /messages/abc) serves index.html; a missing asset is
 * a 404 (never index.html posing as JavaScript); another host or scheme is a 403, and so is any path
 * that would leave `root` (`..`, encoded or not, backslashes, NUL).
 */
export function resolveAppFile(requestUrl: string, root: string, isFile: (file: string) => boolean): AppFile {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { status: 403 };
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { status: 400 };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return { status: 403 };
  if (pathname.split('/').some((segment) => segment === '..')) return { status: 403 };
  const base = path.resolve(root);
  const file = path.resolve(base, `.${pathname}`);
  if (file !== base && !file.startsWith(base + path.sep)) return { status: 403 };
  if (file !== base && isFile(file)) return { status: 200, file, mime: mimeTypeOf(file) };
  if (path.extname(pathname) === '' || pathname.endsWith('/')) {
    const index = path.join(base, 'index.html');
    return { status: 200, file: index, mime: mimeTypeOf(index) };
  }
  return { status: 404 };
}
