import { badRequest } from '../errors.js';
import type { Middleware } from './context.js';

export const NUL_REFUSED = 'Text may not contain NUL characters.';

/**
 * True when a string anywhere in `value` (object keys included, at any depth) holds a NUL
 * character. Walked with a list rather than recursion, so no nesting depth overflows the stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (Array.isArray(next)) {
      for (const item of next as unknown[]) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, inner] of Object.entries(next)) {
        if (key.includes('\u0000')) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Refuses a NUL character in the path, the query or the JSON body of every request with one
 * 400, before any route sees it: PostgreSQL cannot store one in text, and no field of ours
 * needs one. The path is checked raw (`%00` is the only way a NUL reaches a path parameter),
 * so routes whose parameters are not validated are covered too.
 */
export const refuseNulBytes: Middleware = async (ctx, next) => {
  if (/%00/i.test(ctx.path) || containsNul(ctx.query) || containsNul(ctx.request.body)) {
    throw badRequest(NUL_REFUSED, 'invalid_characters');
  }
  await next();
};
