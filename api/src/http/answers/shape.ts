import { z } from 'zod';

/**
 * Success answers as the OpenAPI document describes them (http/openapi.ts). Server-only: the
 * contract in api/contract keeps TypeScript types for the website, and these zod schemas (built at
 * module load) stay out of its bundle.
 */

/** True when A and B are the very same type: a field missing, added, optional or typed otherwise makes it false. */
type Same<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

/**
 * A schema of the answer type `T`: `shape<LinkView>()(z.object({…}))` compiles only while the
 * schema's output is exactly `T`, so a change to the contract type that the schema does not follow
 * fails the type check (an added, dropped or retyped field alike).
 */
export const shape =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S & (Same<z.output<S>, T> extends true ? unknown : { differsFrom: T })): S =>
    schema;

/** An ISO 8601 time as `Date.toISOString()` writes it. */
export const isoTime = z.iso.datetime();

/** Dollars on the wire: a JSON number (whole cents; amounts can be negative in the money history). */
export const dollars = z.number();

/** A count. */
export const count = z.number().int().min(0);

/** How one route answers when it succeeds. */
export type SuccessAnswer = (
  | /** JSON of this shape. */ { status: number; schema: z.ZodType; description: string }
  | /** Another media type (an image, a CSV file, a page). */ { status: number; media: string; description: string; binary?: boolean }
  | /** No body: 204, 304. */ { status: number; description: string }
) & {
  /** Answered to a visitor too, on a route that otherwise needs a session: signing in is optional there. */
  visitor?: boolean;
};

export const json = (status: number, schema: z.ZodType, description: string): SuccessAnswer => ({ status, schema, description });
export const noContent = (description: string, visitor?: boolean): SuccessAnswer => ({ status: 204, description, visitor });
export const notModified: SuccessAnswer = { status: 304, description: 'Not modified: the copy named by If-None-Match is current' };

/** The success answers of each route, by `METHOD /template` as the routers register it (`GET /api/users/:id`). */
export type AnswerMap = Record<string, SuccessAnswer[]>;
