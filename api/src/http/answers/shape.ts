import { z } from 'zod';

/** True when A and B are the very same type: a field missing, added, optional or typed otherwise makes it false. */
type Same<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

/**
 * A schema of a server-side answer type `T`: `shape<WebhookAnswer>()(z.object({…}))` compiles only while the
 * schema's output is exactly `T`, so a change to the type that the schema does not follow
 * fails the type check (an added, dropped or retyped field alike).
 */
export const shape =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { differsFrom: T })): S =>
    schema;

export { json, type SuccessAnswer } from '../../../contract/route-table.js';
