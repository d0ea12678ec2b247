import type { UpgradeRequiredBody } from '../../../api/contract/desktop';
import type { ErrorCode } from '../../../api/contract/errors';
import type { AnswerOf, InputOf, MethodOf, ParamNames, PathOf } from '../../../api/contract/route-table';
import type { RouteKey, Routes } from '../../../api/contract/routes';
import { NETWORK_ERROR as NETWORK_ERROR_MESSAGE } from '../../../api/contract/texts';
import { platform } from '../platform';
import type { ApiErrorBody } from './types';
import { reportUpgradeRequired } from './upgrade';

export { NETWORK_ERROR_MESSAGE };

/** The 426 answer's code: an outdated desktop app. */
const UPGRADE_REQUIRED: UpgradeRequiredBody['error'] = 'upgrade_required';

declare global {
  interface ImportMetaEnv {
    /** The desktop build's API address (electron.vite.config.ts, from GIFTLINK_API_URL); unset on the website. */
    readonly VITE_GIFTLINK_API_URL?: string;
  }
}

function originOf(raw: string | undefined): string {
  if (!raw) return '';
  try {
    return new URL(raw).origin;
  } catch {
    return '';
  }
}

/**
 * Where the API is: '' on the website (the same origin serves the site and the API); the hosted
 * API's origin in the desktop build, whose pages come from app://giftlink.
 */
export const API_BASE_URL = originOf(import.meta.env.VITE_GIFTLINK_API_URL);

/** An API path (`/api/auth/me`, `/links/ada`) as the URL to fetch; anything else unchanged. */
export function apiUrl(path: string): string {
  return path.startsWith('/') && !path.startsWith('//') ? `${API_BASE_URL}${path}` : path;
}

/** Pictures the API serves (uploads, catalogue images, share images): not the app's own files. */
const API_MEDIA_PATH = /^\/(uploads\/|catalog\/images\/|(links|wishlists)\/[^/?#]+\/image(\?|$))/;

/** A picture address from the API, resolved against the API on desktop (its files are not the app's). */
export function mediaUrl(url: string): string {
  return API_BASE_URL && API_MEDIA_PATH.test(url) ? `${API_BASE_URL}${url}` : url;
}

/** True for a URL the API answers (the page's own origin on the website). */
export function isApiUrl(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === (API_BASE_URL || window.location.origin);
  } catch {
    return false;
  }
}

/** Fields of API answers that hold a picture address (or a list of them). */
const MEDIA_FIELDS = new Set(['imageUrl', 'profilePicture', 'coverPicture', 'img', 'photo', 'ebItemPhoto', 'allImages']);

/** On desktop, every picture address in an answer points at the API; on the website nothing changes. */
function withMediaUrls(value: unknown, media = false): unknown {
  if (typeof value === 'string') return media ? mediaUrl(value) : value;
  if (Array.isArray(value)) return value.map((v) => withMediaUrls(v, media));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withMediaUrls(v, MEDIA_FIELDS.has(k))]));
  return value;
}

/**
 * The one way to the API, for JSON calls and files alike. The website sends its same-origin
 * cookie. The desktop app sends no cookie and never holds its token: the main process adds the
 * token and the app's version to API requests; a new token the API answers (a password change)
 * goes straight back to the main process. An outdated desktop app's 426 raises the update banner.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const desktop = platform.kind === 'desktop';
  const res = await fetch(apiUrl(path), { ...init, credentials: desktop ? 'omit' : 'same-origin' });
  const renewed = res.headers.get('x-auth-token');
  if (desktop && renewed) await platform.token.set(renewed).catch(() => undefined);
  if (res.status === 426) {
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as Partial<UpgradeRequiredBody> | null;
    if (body?.error === UPGRADE_REQUIRED && typeof body.message === 'string')
      reportUpgradeRequired({ message: body.message, downloadUrl: typeof body.downloadUrl === 'string' ? body.downloadUrl : null });
  }
  return res;
}

/** The API's error codes, and the client's own: no answer at all, or an answer without a JSON error. */
export type ApiErrorCode = ErrorCode | 'network_error' | `http_${number}`;

/**
 * The one error every API call throws. `status` is the HTTP status, or 0 when the request never
 * got an answer (offline, server down); `code` is the API's stable error code.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;

  constructor(status: number, code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** A JSON-serialisable value, or FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, for example `Idempotency-Key` on calls that move money. */
  headers?: Record<string, string>;
  /** Reads a successful answer's headers (an inbox page's next cursor). */
  onHeaders?: (headers: Headers) => void;
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null;
}

async function readJson(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 204 || !type.includes('json')) return undefined;
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

/** How long a resendable call waits before its one resend. */
const RESEND_AFTER_MS = 300;

export async function request<T>(
  method: HttpMethod,
  path: string,
  { body, signal, headers: extraHeaders, onHeaders }: RequestOptions = {},
): Promise<T> {
  const headers = new Headers({ ...extraHeaders, Accept: 'application/json' });
  // The website's token store is empty (the cookie authenticates); the desktop's main process adds it.
  const token = platform.kind === 'desktop' ? null : await platform.token.get();
  if (token) headers.set('x-auth-token', token);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  // A read, or a call with an Idempotency-Key (the server runs it at most once), whose connection
  // failed before an answer is sent once more: a proxy's restart closing a reused connection is no error to show.
  const resendable = method === 'GET' || headers.has('Idempotency-Key');
  let res: Response | undefined;
  for (let attempt = 0; !res; attempt++) {
    try {
      res = await apiFetch(path, { method, headers, body: payload, signal });
    } catch (err) {
      if (isAbortError(err) || signal?.aborted) throw err;
      if (!resendable || attempt > 0) throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
      await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER_MS));
    }
  }

  const data = await readJson(res);
  if (!res.ok) {
    const errBody = isErrorBody(data) ? data : {};
    throw new ApiError(
      res.status,
      typeof errBody.error === 'string' ? errBody.error : `http_${res.status}`,
      typeof errBody.message === 'string' ? errBody.message : res.statusText || 'Request failed',
    );
  }
  onHeaders?.(res.headers);
  return (API_BASE_URL ? withMediaUrls(data) : data) as T;
}

/** Header options for a call that moves money: one fresh key per user action. */
export function idempotent(key: string): Pick<RequestOptions, 'headers'> {
  return { headers: { 'Idempotency-Key': key } };
}

/** The server's own message when it sent one, else `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status !== 0 && err.message && !err.code.startsWith('http_')) return err.message;
  return fallback;
}

/** The parts of a call the route table says `K` takes: its path's parameters, its query, its body. */
export type CallInput<K extends RouteKey> = ([ParamNames<PathOf<K>>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<PathOf<K>>, string> }) &
  (Routes[K] extends { query: infer Q } ? { query: InputOf<Q> } : { query?: undefined }) &
  (Routes[K] extends { body: infer B } ? { body: InputOf<B> } : { body?: FormData }) &
  Omit<RequestOptions, 'body'>;

/** The path of a call: the template's `:name`s filled in (encoded), then the query's defined values. */
export function callPath(template: string, params?: Record<string, string>, query?: object): string {
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Calls the route the table names `key` (`'POST /links/create'`): the body and query are typed by
 * the table's request schemas and the answer by its success answers, so a screen cannot read a
 * field the API does not send.
 */
export function call<K extends RouteKey>(key: K, input: CallInput<K>): Promise<AnswerOf<Routes[K]>> {
  const space = key.indexOf(' ');
  const method = key.slice(0, space) as MethodOf<K> & HttpMethod;
  const { params, query, ...options } = input as { params?: Record<string, string>; query?: object } & RequestOptions;
  return request<AnswerOf<Routes[K]>>(method, callPath(key.slice(space + 1), params, query), options);
}
