import { z } from 'zod';

/**
 * How routes answer when they succeed, as the OpenAPI document describes them (http/openapi.ts).
 * The answers' zod schemas live in the contract (api/contract/), beside the request schemas.
 */

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
