// The session token never reaches page JavaScript: the main process adds `x-auth-token` (from the
// keychain) and the app's version to requests for the API origin only, HTTP and the socket.io
// handshake alike, through `session.webRequest.onBeforeSendHeaders`.
import type { Session } from 'electron';
import type { ApiOrigin } from './api-origin.js';

export const TOKEN_HEADER = 'x-auth-token';
export const VERSION_HEADER = 'x-giftlink-version';

/** The webRequest filter: the API's HTTP origin and its socket origin, nothing else. */
export function apiUrlPatterns(api: ApiOrigin): string[] {
  return [`${api.http}/*`, `${api.ws}/*`];
}

/** Whether `url` is a request to the API (same scheme family, host and port), never a look-alike host. */
export function isApiRequest(url: string, api: ApiOrigin): boolean {
  try {
    const target = new URL(url);
    const http = new URL(api.http);
    const ws = new URL(api.ws);
    return (target.protocol === http.protocol && target.host === http.host) || (target.protocol === ws.protocol && target.host === ws.host);
  } catch {
    return false;
  }
}

/**
 * The headers to send: for an API request, the page's headers without any token it tried to set,
 * plus ours (the stored token, when there is one, and the version); any other request unchanged.
 */
export function withApiHeaders(
  url: string,
  headers: Record<string, string>,
  api: ApiOrigin,
  token: string | null,
  version: string,
): Record<string, string> {
  if (!isApiRequest(url, api)) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower !== TOKEN_HEADER && lower !== VERSION_HEADER) out[name] = value;
  }
  if (token) out[TOKEN_HEADER] = token;
  out[VERSION_HEADER] = version;
  return out;
}

export interface ApiHeaderDeps {
  api: ApiOrigin;
  version: string;
  /** The keychain's `loadToken()`; a failure sends the request without a token. */
  loadToken: () => Promise<string | null>;
  log?: (message: string) => void;
}

export function installApiHeaders(session: Pick<Session, 'webRequest'>, deps: ApiHeaderDeps): void {
  session.webRequest.onBeforeSendHeaders({ urls: apiUrlPatterns(deps.api) }, (details, callback) => {
    deps.loadToken().then(
      (token) => callback({ requestHeaders: withApiHeaders(details.url, details.requestHeaders, deps.api, token, deps.version) }),
      (error: unknown) => {
        deps.log?.(`could not read the token: ${String(error)}`);
        callback({ requestHeaders: withApiHeaders(details.url, details.requestHeaders, deps.api, null, deps.version) });
      },
    );
  });
}
