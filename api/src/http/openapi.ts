import type Router from '@koa/router';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/tokens.js';
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

function operation(route: DocumentedRoute) {
  const { body, query, params } = route.schemas;
  const answers: Record<string, unknown> = {
    // No answer schemas exist yet: a success is described as JSON of any shape.
    '2XX': { description: 'Success (JSON; its shape is not described yet)', content: { 'application/json': { schema: {} } } },
    '4XX': errorAnswer('Refused: the request is invalid, not allowed or names nothing that exists'),
    '5XX': errorAnswer('The server failed'),
  };
  if (route.signedIn) answers['401'] = errorAnswer('Not signed in');
  return {
    operationId: `${route.method.toLowerCase()}${route.template.replace(/[^A-Za-z0-9]+(\w?)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [route.template.split('/').filter((s) => s && s !== 'api')[0] ?? 'root'],
    parameters: [...parameters('path', params, route.paramNames), ...parameters('query', query)],
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(body) } } } } : {}),
    ...(route.signedIn ? { security: [{ sessionToken: [] }, { sessionCookie: [] }] } : {}),
    responses: answers,
  };
}

/** The OpenAPI 3.1 document of the routers' routes. */
export function openApiDocument(routes: readonly DocumentedRoute[], version = '0.1.0') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Giftlink API',
      version,
      description:
        'Generated from the zod schemas the routes validate with. Every refusal answers `{ error, message }`; success answers are JSON whose shapes are not described yet.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string', description: 'A stable code: `validation_failed`, `not_found`…' },
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
