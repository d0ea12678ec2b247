import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Middleware } from './context.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A request at least this slow is worth a line in development, whatever its status. */
export const SLOW_REQUEST_MS = 1000;

export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * How requests are logged. `json`: one pino record per request (production, where logs are
 * collected and queried). `line`: a short human line, and only for a request that went wrong or
 * was slow, so a page load's dozens of 200s never push the start-up invite URL off the terminal.
 */
export type RequestLogFormat = 'json' | 'line';

export const requestLogFormat = (env: Config['env']): RequestLogFormat => (env === 'development' ? 'line' : 'json');

/** Whether a request earns a line in development: an error (4xx, 5xx) or a slow answer. */
export const worthALine = ({ status, ms }: Pick<AnsweredRequest, 'status' | 'ms'>): boolean => status >= 400 || ms >= SLOW_REQUEST_MS;

/** `GET /api/auth/me 401 3.2ms` */
export const requestLine = ({ method, path, status, ms }: AnsweredRequest): string => `${method} ${path} ${status} ${ms}ms`;

export interface RequestLogOptions {
  format?: RequestLogFormat;
  /** Where `line` output goes (standard output by default). */
  write?: (line: string) => void;
}

/**
 * Gives each request an id (kept from x-request-id when sane) and logs it once it is answered,
 * as `format` says; nothing when the logger's level is above info (LOG_LEVEL).
 */
export function requestLog(
  log: Logger,
  { format = 'json', write = (line) => process.stdout.write(`${line}\n`) }: RequestLogOptions = {},
): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ requestId });
    ctx.set('x-request-id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const answered: AnsweredRequest = {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (format === 'json') ctx.state.log.info({ ...answered, userId: ctx.state.user?.id }, 'request');
      else if (log.isLevelEnabled('info') && worthALine(answered)) write(requestLine(answered));
    }
  };
}
