import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { MAX_PAGE } from './limits.js';

/** Every error answer of the API (and of the socket's acknowledgements). */
export interface ApiErrorBody {
  /** A stable code from the list in errors.ts. */
  error: ErrorCode;
  /** A text for a person. */
  message: string;
}

/** An id in a path, query or body (UUIDs, with room to spare). */
export const idSchema = z.string().min(1).max(64);

/** A username that names someone (in a path, query or body): compared in lower case. */
export const usernameRef = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .transform((s) => s.toLowerCase());

/** An ISO 8601 time in an answer, as `Date.toISOString()` writes it. */
export const isoTime = z.iso.datetime();

/** Dollars in an answer: a JSON number (whole cents; amounts can be negative in the money history). */
export const dollars = z.number();

/** A count in an answer. */
export const count = z.number().int().min(0);

/** `?page=` of a paged list: 1 (the default) is the first (newest) page. */
export const PageQuery = z.object({
  page: z.coerce.number({ error: 'page must be a whole number from 1' }).int().min(1).max(MAX_PAGE).default(1),
});
