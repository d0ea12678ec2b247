import { z } from 'zod';
import { INSTANCE_HEADER } from '../../db/instance.js';
import type { WebhookOutcome } from '../../subscriptions/webhook.js';
import type { NotReady } from '../ready.js';
import { json, shape, type SuccessAnswer } from './shape.js';

/** A path answered by a middleware of app.ts rather than a router, which the routers' stack cannot list. */
export interface ServedPath {
  method: 'GET' | 'POST';
  path: string;
  tag: string;
  summary: string;
  answers: SuccessAnswer[];
  /** The request body, when there is one. */
  body?: { media: string; schema: Record<string, unknown> };
  headers?: { name: string; description: string }[];
}

const Health = z.object({ status: z.literal('ok') });
/** The database a command named (x-giftlink-instance) is not this server's; the id itself is never answered. */
const OtherDatabase = z.object({ status: z.literal('other database') });

const Ready = z.object({ status: z.literal('ready') });
const NotReadyAnswer = shape<{ status: NotReady }>()(z.object({ status: z.enum(['starting', 'draining', 'database', 'redis']) }));

interface WebhookAnswer {
  received: true;
  outcome: WebhookOutcome;
}
const WebhookAnswerSchema = shape<WebhookAnswer>()(
  z.object({ received: z.literal(true), outcome: z.enum(['processed', 'already processed', 'ignored']) }),
);

/** The document itself: an OpenAPI 3.1 object (only its frame is described here). */
const OpenApi = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** Paths that middlewares of app.ts answer (http/docs.ts, the health and readiness checks, the Stripe webhook). */
export const servedPaths: ServedPath[] = [
  {
    method: 'GET',
    path: '/healthz',
    tag: 'root',
    summary: 'Health check (reads the database)',
    headers: [
      {
        name: INSTANCE_HEADER,
        description: "The database id a command opened (npm run invite, npm run moderation), to check it is this server's",
      },
    ],
    answers: [json(200, Health, 'Up'), json(409, OtherDatabase, 'Up, on another database than the header names')],
  },
  {
    method: 'GET',
    path: '/readyz',
    tag: 'root',
    summary: 'Readiness: whether this process should get traffic (its database and Redis answer, it is not starting or shutting down)',
    answers: [json(200, Ready, 'Ready'), json(503, NotReadyAnswer, 'Not ready, and why')],
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'docs',
    summary: 'This document',
    answers: [json(200, OpenApi, 'The OpenAPI 3.1 document')],
  },
  {
    method: 'GET',
    path: '/api/docs',
    tag: 'docs',
    summary: 'A readable reference of this document',
    answers: [{ status: 200, media: 'text/html', description: 'The reference page' }],
  },
  {
    method: 'POST',
    path: '/subscriptions/webhook',
    tag: 'subscriptions',
    summary: "Stripe's signed events (PAYMENTS=stripe only; the signature covers the raw body)",
    body: { media: 'application/json', schema: { type: 'object' } },
    headers: [{ name: 'stripe-signature', description: "Stripe's signature of the raw body" }],
    answers: [json(200, WebhookAnswerSchema, 'The event is applied, was applied before, or is not one the subscription follows')],
  },
  {
    method: 'POST',
    path: '/payouts/webhook',
    tag: 'payouts',
    summary: "Stripe's signed Connect events (`account.updated`; PAYMENTS=stripe with STRIPE_CONNECT_WEBHOOK_SECRET only)",
    body: { media: 'application/json', schema: { type: 'object' } },
    headers: [{ name: 'stripe-signature', description: "Stripe's signature of the raw body, with the Connect endpoint's secret" }],
    answers: [json(200, WebhookAnswerSchema, "The event is applied, was applied before, or is not about one of our users' accounts")],
  },
];
