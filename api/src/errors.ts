import type { ErrorCode, ErrorCodeFor, ErrorMessage, ErrorStatus } from '../contract/errors.js';

/** A status written out must be one the list gives the code; a computed one (a framework's) is not checked. */
type ListedStatus<C extends ErrorCode, S extends number> = number extends S
  ? unknown
  : S extends ErrorStatus<C>
    ? unknown
    : { notAStatusOf: C };

/**
 * One error type for the whole API. Every error answer is
 * `{ error: <code from api/contract/errors.ts>, message: <text for a person> }` with its status.
 * The error middleware (http/errors.ts) maps by type, never by message text.
 */
export class AppError<C extends ErrorCode = ErrorCode, S extends number = number> extends Error {
  readonly status: number;
  readonly code: ErrorCode;

  constructor(status: S & ListedStatus<C, S>, code: C, message: ErrorMessage<C>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
  }
}

export const badRequest = <C extends ErrorCodeFor<400> = 'bad_request'>(message: ErrorMessage<C>, code = 'bad_request' as C) =>
  new AppError<C>(400, code, message);
export const unauthorized = (message = 'Please log in to continue.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do that.') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = <C extends ErrorCodeFor<409>>(message: ErrorMessage<C>, code: C) => new AppError<C>(409, code, message);
export const gone = (message: string) => new AppError(410, 'gone', message);
export const tooLarge = (message: string) => new AppError(413, 'too_large', message);
export const unsupportedMedia = (message: string) => new AppError(415, 'unsupported_media_type', message);
export const tooManyRequests = (message = 'Too many attempts. Please wait a minute and try again.') =>
  new AppError(429, 'rate_limited', message);

/** True when a database error is a unique-constraint violation (PostgreSQL or SQLite). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
