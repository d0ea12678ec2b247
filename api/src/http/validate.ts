import { z } from 'zod';
import { badRequest } from '../errors.js';
import type { AppContext, Middleware } from './context.js';

export type Parts = { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType };
type Parsed<P extends Parts> = { [K in keyof P]: P[K] extends z.ZodType ? z.output<P[K]> : never };

/** Messages for issues whose schema did not give one of its own: `field: what is wrong`. */
const describe: z.core.$ZodErrorMap = (iss) => {
  const field = iss.path?.length ? iss.path.join('.') : 'body';
  switch (iss.code) {
    case 'invalid_type':
      return iss.input === undefined
        ? `${field}: is required`
        : `${field}: must be ${iss.expected === 'object' ? 'an object' : `a ${iss.expected}`}`;
    case 'too_small':
      return iss.origin === 'string' ? `${field}: must be at least ${iss.minimum} characters` : `${field}: must be at least ${iss.minimum}`;
    case 'too_big':
      return iss.origin === 'string' ? `${field}: must be at most ${iss.maximum} characters` : `${field}: must be at most ${iss.maximum}`;
    case 'unrecognized_keys':
      return `${field}: unknown field ${iss.keys.join(', ')}`;
    default:
      return `${field}: is invalid`;
  }
};

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data, { error: describe });
  if (!result.success) throw badRequest(result.error.issues[0].message, 'validation_failed');
  return result.data;
}

/** The schemas each `validate()` step checks, by its middleware: the OpenAPI document reads them (http/openapi.ts). */
export const routeSchemas = new WeakMap<Middleware, Parts>();

/**
 * The one validation step of every route: parses body, query and params with the route's zod
 * schemas and hands the typed result to the handler. The first issue becomes a 400.
 */
export function validate<P extends Parts>(parts: P, handler: (ctx: AppContext, input: Parsed<P>) => Promise<void> | void): Middleware {
  const step: Middleware = async (ctx) => {
    const input: Record<string, unknown> = {};
    if (parts.params) input.params = parse(parts.params, ctx.params ?? {});
    if (parts.query) input.query = parse(parts.query, ctx.query);
    if (parts.body) input.body = parse(parts.body, ctx.request.body ?? {});
    ctx.state.input = input;
    await handler(ctx, input as Parsed<P>);
  };
  routeSchemas.set(step, parts);
  return step;
}
