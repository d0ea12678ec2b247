// The app:// scheme: the bundled renderer is served from app://giftlink/… (not file://, not the
// remote site), so the app opens at once and works offline. The scheme is registered as standard and
// secure before `ready`, and `protocol.handle` answers from out/renderer with the page's CSP.
import { readFile, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import type { Protocol } from 'electron';
import { APP_HOST, APP_SCHEME, resolveAppFile } from './protocol-files.js';

export const APP_URL = `${APP_SCHEME}://${APP_HOST}`;

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true, codeCache: true },
    },
  ]);
}

function isFileSync(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Answers one app:// request from `root` (a Fetch API Response, as `protocol.handle` wants). */
export async function serveAppRequest(requestUrl: string, root: string, csp: string): Promise<Response> {
  const resolved = resolveAppFile(requestUrl, root, isFileSync);
  if (resolved.status !== 200) return new Response(null, { status: resolved.status });
  try {
    if (!(await stat(resolved.file)).isFile()) return new Response(null, { status: 404 });
    const body = await readFile(resolved.file);
    const headers: Record<string, string> = { 'content-type': resolved.mime, 'x-content-type-options': 'nosniff' };
    if (resolved.mime.startsWith('text/html')) headers['content-security-policy'] = csp;
    return new Response(new Uint8Array(body), { status: 200, headers });
  } catch {
    return new Response(null, { status: 404 });
  }
}

/** After `ready`: serve the renderer build for the app:// scheme. */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, root: string, csp: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request.url, root, csp));
}
