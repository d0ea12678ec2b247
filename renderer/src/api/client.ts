import { NETWORK_ERROR as NETWORK_ERROR_MESSAGE } from '../../../api/contract/texts';
import { platform } from '../platform';
import type { ApiErrorBody } from './types';

export { NETWORK_ERROR_MESSAGE };

/**
 * The one error every API call throws. `status` is the HTTP status, or 0 when the request never
 * got an answer (offline, server down); `code` is the API's stable error code.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
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

export async function request<T>(
  method: HttpMethod,
  path: string,
  { body, signal, headers: extraHeaders }: RequestOptions = {},
): Promise<T> {
  const headers = new Headers({ ...extraHeaders, Accept: 'application/json' });
  const token = await platform.token.get();
  if (token) headers.set('x-auth-token', token);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, signal, credentials: 'same-origin' });
  } catch (err) {
    if (isAbortError(err) || signal?.aborted) throw err;
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
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
  return data as T;
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

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, options),
};
