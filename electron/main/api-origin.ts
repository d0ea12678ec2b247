// The hosted API the desktop app talks to. Its address is fixed at build time (GIFTLINK_API_URL,
// through electron-vite's `define`); a packaged app refuses anything but https, so a release can
// never send a session token in the clear. Development defaults to http://localhost:3000.

export const DEFAULT_API_URL = 'http://localhost:3000';

export interface ApiOrigin {
  /** `https://api.example` (no path, no trailing slash). */
  http: string;
  /** The socket's origin: `wss://api.example` (or ws: for an http API). */
  ws: string;
}

/** Parses the build-time API address; throws a message naming GIFTLINK_API_URL when unusable. */
export function apiOriginOf(raw: string | undefined, isPackaged: boolean): ApiOrigin {
  const value = raw?.trim() || DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`GIFTLINK_API_URL is not a URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`GIFTLINK_API_URL must be http(s): ${value}`);
  if (isPackaged && url.protocol !== 'https:') throw new Error(`GIFTLINK_API_URL must be https in a packaged build: ${value}`);
  if (url.username || url.password) throw new Error('GIFTLINK_API_URL must not carry credentials');
  return { http: url.origin, ws: `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}` };
}
