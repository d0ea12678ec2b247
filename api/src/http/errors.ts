import { AppError } from '../errors.js';
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
  if (typeof err.code === 'string' && err.code.startsWith('LIMIT_'))
    return new AppError(400, 'bad_upload', 'The upload is malformed.');
  const status = err.status ?? err.statusCode;
  if (!status || status < 400 || status >= 500) return undefined;
  if (status === 413) return new AppError(413, 'too_large', 'The request body is too large.');
  if (status === 415) return new AppError(415, 'unsupported_media_type', 'Unsupported content type.');
  if (status === 400)
    return new AppError(400, 'malformed_body', 'The request body is not valid JSON.');
  return new AppError(status, 'bad_request', 'The request could not be read.');
}

/** The one error middleware: every error answer is `{ error, message }`. */
export const errorMiddleware: Middleware = async (ctx, next) => {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: 'not_found', message: 'Not found' };
    }
  } catch (raw) {
    const err = raw instanceof AppError ? raw : fromFrameworkError(raw as HttpLikeError);
    if (err) {
      ctx.status = err.status;
      ctx.body = { error: err.code, message: err.message };
      return;
    }
    ctx.state.log.error({ err: raw }, 'unhandled error');
    ctx.status = 500;
    ctx.body = { error: 'internal', message: 'Server error. Please try again later.' };
  }
};
