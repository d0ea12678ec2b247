import type Router from '@koa/router';
import { z } from 'zod';
import { ERROR_CODES } from '../../contract/errors.js';
import { SESSION_COOKIE } from '../auth/tokens.js';
import { ROUTES } from '../../contract/routes/index.js';
import type { RouteSpec, SuccessAnswer } from '../../contract/route-table.js';
import { servedPaths, type ServedPath } from './answers/index.js';
import type { AuthMiddleware } from './auth.js';
import type { AppState, Middleware } from './context.js';
import { routeSchemas, type Parts } from './validate.js';

type JsonSchema = Record<string, unknown>;

/** One route as the routers register it, with the schemas its `validate()` step checks. */
export interface DocumentedRoute {
  method: string;
  /** As registered, with `:param`s: `/api/users/:id`. */
  template: string;
  /** As OpenAPI writes it: `/api/users/{id}`. */
  path: string;
  paramNames: string[];
  schemas: Parts;
  signedIn: boolean;
}

/**
 * Every route of the routers, read from their `stack` (HEAD, which the router adds to each GET,
 * left out), with the schemas `validate()` recorded for its middleware. One source of truth: the
 * document and the fuzz test read what the routes really check.
 */
export function documentedRoutes(routers: readonly Router<AppState>[], auth?: AuthMiddleware): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const router of routers)
    for (const layer of router.stack) {
      const stack = layer.stack as unknown as Middleware[];
      const schemas = stack.map((m) => routeSchemas.get(m)).find((s) => s !== undefined) ?? {};
      const template = String(layer.path);
      for (const method of layer.methods.filter((m) => m !== 'HEAD'))
        routes.push({
          method,
          template,
          path: template.replace(/:(\w+)/g, '{$1}'),
          paramNames: layer.paramNames.map((p) => String(p.name)),
          schemas,
          signedIn: auth ? stack.includes(auth.authenticate) : false,
        });
    }
  return routes;
}

/** The JSON Schema (2020-12, what OpenAPI 3.1 uses) of what a client sends: the schema's input side. */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The JSON Schema of what the server answers: the schema's output side (objects list every field they may carry, and no other). */
export function outputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The `responses` entry of one success answer: JSON of its schema, another media type, or no body. */
function successAnswer(answer: SuccessAnswer) {
  if ('schema' in answer)
    return { description: answer.description, content: { 'application/json': { schema: outputSchema(answer.schema) } } };
  if ('media' in answer) {
    const schema = answer.binary ? { type: 'string', contentMediaType: answer.media } : { type: 'string' };
    return { description: answer.description, content: { [answer.media]: { schema } } };
  }
  return { description: answer.description };
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function errorAnswer(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

/** Path or query parameters from an object schema's properties (a path parameter with no schema is a string). */
function parameters(where: 'path' | 'query', schema: z.ZodType | undefined, names: string[] = []) {
  const json = schema ? inputSchema(schema) : {};
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const keys = where === 'path' ? names : Object.keys(properties);
  return keys.map((name) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: properties[name] ?? { type: 'string' },
  }));
}

function operation(route: DocumentedRoute, table: Record<string, RouteSpec>) {
  const { body, query, params } = route.schemas;
  const answers: Record<string, unknown> = {};
  // A route without an entry in the table gets no success answer: openapi.test.ts fails for it.
  const described = table[`${route.method} ${route.template}`]?.answers ?? [];
  for (const answer of described) answers[String(answer.status)] = successAnswer(answer);
  // `{}`: no credentials at all is also accepted (a visitor's answer), so Prism does not call a visitor's request invalid.
  const security = [{ sessionToken: [] }, { sessionCookie: [] }, ...(described.some((a) => a.visitor) ? [{}] : [])];
  Object.assign(answers, {
    '4XX': errorAnswer('Refused: the request is invalid, not allowed or names nothing that exists'),
    '5XX': errorAnswer('The server failed'),
  });
  if (route.signedIn) answers['401'] = errorAnswer('Not signed in');
  return {
    operationId: `${route.method.toLowerCase()}${route.template.replace(/[^A-Za-z0-9]+(\w?)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [route.template.split('/').filter((s) => s && s !== 'api')[0] ?? 'root'],
    parameters: [...parameters('path', params, route.paramNames), ...parameters('query', query)],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(body) } } } } : {}),
    ...(route.signedIn ? { security } : {}),
    responses: answers,
  };
}

/** A path a middleware answers (http/answers/served.ts): documented so its answers are checked too. */
function servedOperation(served: ServedPath) {
  const answers: Record<string, unknown> = {};
  for (const answer of served.answers) answers[String(answer.status)] = successAnswer(answer);
  answers['4XX'] = errorAnswer('Refused');
  answers['5XX'] = errorAnswer('The server failed');
  return {
    operationId: `${served.method.toLowerCase()}${served.path.replace(/[^A-Za-z0-9]+(\w?)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [served.tag],
    summary: served.summary,
    parameters: (served.headers ?? []).map((h) => ({
      name: h.name,
      in: 'header',
      required: true,
      description: h.description,
      schema: { type: 'string' },
    })),
    ...(served.body ? { requestBody: { required: true, content: { [served.body.media]: { schema: served.body.schema } } } } : {}),
    responses: answers,
  };
}

/** The OpenAPI 3.1 document of the routers' routes, and of the paths middlewares answer. */
export function openApiDocument(routes: readonly DocumentedRoute[], version = '0.1.0', table: Record<string, RouteSpec> = ROUTES) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, table);
  for (const served of servedPaths) (paths[served.path] ??= {})[served.method.toLowerCase()] = servedOperation(served);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Giftlink API',
      version,
      description:
        'Generated from the zod schemas the routes validate with. Every success answer is described (JSON of its shape, another media type, or no body); every refusal answers `{ error, message }`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', enum: ERROR_CODES, description: 'A stable code (api/contract/errors.ts)' },
            message: { type: 'string', description: 'A sentence for people' },
          },
        },
      },
      securitySchemes: {
        sessionToken: { type: 'apiKey', in: 'header', name: 'x-auth-token' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
}
