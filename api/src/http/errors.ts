import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import type { ApiErrorBody } from '../../contract/common.js';
import { SERVER_ERROR, UNAVAILABLE } from '../../contract/texts.js';
import { AppError } from '../errors.js';
import { isRedisUnavailable } from '../realtime/redis.js';
import type { Middleware } from './context.js';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
}

/** Body-parser and multipart failures arrive as http-errors / multer errors: map them by type. */
function fromFrameworkError(err: HttpLikeError): AppError | undefined {
  if (err.code === 'LIMIT_FILE_SIZE') return new AppError(413, 'too_large', 'The file is too large.');
  if (typeof err.code === 'string' && err.code.startsWith('LIMIT_')) return new AppError(400, 'bad_upload', 'The upload is malformed.');
  const status = err.status ?? err.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  if (status === 413) return new AppError(413, 'too_large', 'The request body is too large.');
  if (status === 415) return new AppError(415, 'unsupported_media_type', 'Unsupported content type.');
  if (status === 400) return new AppError(400, 'malformed_body', 'The request body is not valid JSON.');
  return new AppError(status, 'bad_request', 'The request could not be read.');
}

/**
 * PostgreSQL data exceptions caused by the text a client sent (a NUL byte, a byte sequence the
 * encoding cannot hold, text that is not a valid value of its column's type, text too long for
 * its column), by SQLSTATE. Anything else from the database stays a 500.
 */
const INVALID_TEXT_SQLSTATES = new Set([
  '22021', // character_not_in_repertoire (invalid byte sequence, NUL)
  '22P05', // untranslatable_character
  '22P02', // invalid_text_representation
  '22001', // string_data_right_truncation
]);

function fromDatabaseError(err: unknown): AppError | undefined {
  if (!(err instanceof QueryFailedError) && !(err instanceof pg.DatabaseError)) return undefined;
  const code = (err as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (err as { code?: unknown }).code;
  if (typeof code === 'string' && INVALID_TEXT_SQLSTATES.has(code))
    return new AppError(400, 'invalid_text', 'The request holds text that cannot be stored.');
  return undefined;
}

/** Connection failures (node's codes, SQLSTATE class 08) and a server shutting down or starting up. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', '57P01', '57P02', '57P03']);

/**
 * PostgreSQL or Redis out of reach: 503 `unavailable`, so a client (and nginx) knows that nothing
 * was done and that the same request may be sent again in a moment.
 */
export function fromUnavailable(err: unknown): AppError | undefined {
  if (isRedisUnavailable(err)) return new AppError(503, 'unavailable', UNAVAILABLE);
  if (!(err instanceof QueryFailedError) && !(err instanceof pg.DatabaseError)) return undefined;
  const code = (err as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08')))
    return new AppError(503, 'unavailable', UNAVAILABLE);
  return undefined;
}

/** Answers with an empty body that the routers leave behind, as JSON like every other error. */
const EMPTY_ANSWERS: Record<number, ApiErrorBody> = {
  404: { error: 'not_found', message: 'Not found' },
  405: { error: 'method_not_allowed', message: 'This method is not allowed here.' },
  501: { error: 'not_implemented', message: 'This method is not supported.' },
};

/** The one error middleware: every error answer is `{ error, message }`. */
export const errorMiddleware: Middleware = async (ctx, next) => {
  try {
    await next();
    const empty = EMPTY_ANSWERS[ctx.status];
    if (empty && ctx.body == null) {
      const status = ctx.status;
      ctx.body = empty;
      ctx.status = status;
    }
  } catch (raw) {
    const err =
      raw instanceof AppError ? raw : (fromDatabaseError(raw) ?? fromUnavailable(raw) ?? fromFrameworkError(raw as HttpLikeError));
    if (err) {
      if (err.status === 503) ctx.set('Retry-After', '1');
      ctx.status = err.status;
      ctx.body = { error: err.code, message: err.message };
      return;
    }
    ctx.state.log.error({ err: raw }, 'unhandled error');
    ctx.status = 500;
    ctx.body = { error: 'internal', message: SERVER_ERROR };
  }
};
