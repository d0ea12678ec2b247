import type { z } from 'zod';

/**
 * The shape of the route table (routes/index.ts): for each route, what it takes and how it
 * answers. The server validates with it, the OpenAPI document describes it and the renderer's
 * client types its calls by it, so none of the three can say something the others do not.
 */

/** How one route answers when it succeeds. */
export type SuccessAnswer = (
  | /** JSON of this shape. */ { status: number; schema: z.ZodType; description: string }
  | /** Another media type (an image, a CSV file, a page). */ { status: number; media: string; description: string; binary?: boolean }
  | /** No body: 204, 304. */ { status: number; description: string }
) & {
  /** Answered to a visitor too, on a route that otherwise needs a session: signing in is optional there. */
  visitor?: boolean;
};

/** One route: the parts of the request it validates, and its success answers. */
export interface RouteSpec {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  answers: readonly SuccessAnswer[];
}

export const json = <S extends z.ZodType>(status: number, schema: S, description: string) => ({ status, schema, description });
export const noContent = (description: string, visitor?: boolean) => ({ status: 204 as const, description, visitor });
/** A JPEG picture. */
export const jpeg = (description: string) => ({ status: 200, media: 'image/jpeg', binary: true, description });
export const notModified: SuccessAnswer = { status: 304, description: 'Not modified: the copy named by If-None-Match is current' };

/** `POST /links/:username` → `POST`. */
export type MethodOf<K extends string> = K extends `${infer M} ${string}` ? M : never;
/** `POST /links/:username` → `/links/:username`. */
export type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;
/** The `:name`s of a path template. */
export type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}`
  ? N | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer N}`
    ? N
    : never;

type BodyOfAnswer<A> = A extends { schema: infer S extends z.ZodType } ? z.output<S> : A extends { status: 204 } ? undefined : never;
/** What a route's success answers hold: a union of its JSON shapes, with `undefined` for a 204; `undefined` when none is JSON. */
export type AnswerOf<R extends RouteSpec> = [BodyOfAnswer<R['answers'][number]>] extends [never]
  ? undefined
  : BodyOfAnswer<R['answers'][number]>;

/** A request part as the client sends it. */
export type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
/** A request part as the server's handler gets it, once validated. */
export type ParsedOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Splits `METHOD /path` into its two parts. */
export function splitRouteKey(key: string): { method: string; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space), path: key.slice(space + 1) };
}
