import type { IncomingHttpHeaders } from 'node:http';
import { parseCookie } from 'cookie';
import { SESSION_COOKIE } from './tokens.js';

/**
 * Where a request's or socket handshake's credentials come from — one reading for HTTP and
 * socket.io alike. `authenticateToken` (session.ts) then decides who it is.
 */
export interface Credentials {
  token: string;
  /** A cookie rides along with any request a browser makes, so it is trusted only from our own origin. */
  via: 'explicit' | 'cookie';
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The token: one given explicitly (the socket's `auth.token`, or the `x-auth-token` header — the
 * desktop app and scripts), else the session cookie (the website).
 */
export function credentialsOf(headers: IncomingHttpHeaders, explicitToken?: unknown): Credentials | undefined {
  const explicit = (typeof explicitToken === 'string' && explicitToken) || header(headers, 'x-auth-token');
  if (explicit) return { token: explicit, via: 'explicit' };
  const cookies = header(headers, 'cookie');
  const cookie = cookies ? parseCookie(cookies)[SESSION_COOKIE] : undefined;
  return cookie ? { token: cookie, via: 'cookie' } : undefined;
}

/**
 * True when a browser request comes from our own origin (`host` as the server sees itself),
 * or is not from a browser at all (no Origin nor Referer).
 */
export function isSameOrigin(headers: IncomingHttpHeaders, host: string | undefined): boolean {
  const origin = header(headers, 'origin') || header(headers, 'referer');
  if (!origin) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
