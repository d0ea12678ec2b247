// @ts-check
/**
 * The allowed direction between the API's folders (`npm run check:deps`). Bottom to top:
 *
 *   contract   api/contract: the wire, shared with the renderer; imports nothing from api/src.
 *   base       config.ts, config-schema.ts, errors.ts, files.ts, lru.ts, text-filter.ts, limits/: imports only base.
 *   infra      db/, mail/, jobs/ (the scheduler), http/ (its core), metrics/, realtime/ (redis,
 *              presence, events, publisher): imports base, never a capability.
 *   capability the folders in CAPABILITIES below, each importing only those listed before it.
 *   edge       every routes.ts, realtime/socket.ts, http/openapi.ts, http/web.ts, http/docs.ts: the
 *              HTTP and socket surface; imports any capability, imported by composition only.
 *   composition app.ts, server.ts, main.ts, deps.ts, schema.ts, jobs/jobs.ts (the job list), every
 *              cli.ts (a command's main), testing/, test files: may import anything; nothing else
 *              imports them.
 *
 * Type-only imports are exempted only where a rule's `because` says why.
 */

/** Capabilities, bottom first: each may import the ones before it, never one after it. */
const CAPABILITIES = [
  // The alerts' outbox: every capability's events write to it, so it imports none of them.
  ['alerts', '^api/src/alerts/'],
  ['notifications', '^api/src/notifications/'],
  ['users', '^api/src/users/'],
  ['analytics', '^api/src/analytics/'],
  ['invites', '^api/src/invites/'],
  ['uploads', '^api/src/uploads/'],
  // http/auth.ts is auth's middleware (the signed-in user from the session), though it sits in http/.
  ['auth', '^api/src/auth/|^api/src/http/auth[.]ts$'],
  // Web Push: the alerts' push channel, devices labelled as sessions are.
  ['push', '^api/src/push/'],
  ['identity', '^api/src/identity/'],
  ['conversations', '^api/src/conversations/'],
  ['blocks', '^api/src/blocks/'],
  ['money', '^api/src/money/'],
  ['payments', '^api/src/payments/'],
  ['subscriptions', '^api/src/subscriptions/'],
  // Connected accounts for withdrawals: the wallet asks it where a withdrawal goes.
  ['payouts', '^api/src/payouts/'],
  // The hub shows new messages and notifications to sockets: above the capabilities it presents.
  ['realtime', '^api/src/realtime/(hub|unread)[.]ts$'],
  ['orders', '^api/src/orders/'],
  // Commands that span capabilities (a gift: money, conversation, order, notification).
  ['commands', '^api/src/commands/'],
  ['catalog', '^api/src/catalog/'],
  ['wishlists', '^api/src/wishlists/'],
  ['links', '^api/src/links/'],
  ['moderation', '^api/src/moderation/'],
  ['sharing', '^api/src/sharing/'],
  ['wallet', '^api/src/wallet/'],
  ['account', '^api/src/account/'],
  // Backups read the ledger's invariants and the uploads' folder; nothing else imports them.
  ['backup', '^api/src/backup/'],
];

const TESTS = '[.]test[.]ts$|^api/src/testing/|^api/src/[^/]+/testing/|^api/src/realtime/testing[.]ts$';
const COMPOSITION = `^api/src/(app|server|main|deps|schema)[.]ts$|^api/src/jobs/jobs[.]ts$|^api/src/[^/]+/cli[.]ts$|${TESTS}`;
const EDGE = '^api/src/[^/]+/routes[.]ts$|^api/src/realtime/socket[.]ts$|^api/src/http/(openapi|web|docs)[.]ts$';
const BASE = '^api/src/(config|config-schema|errors|files|lru|text-filter)[.]ts$|^api/src/limits/';
const INFRA = '^api/src/(db|mail|jobs|http|metrics)/|^api/src/realtime/';
const CAPABILITY = CAPABILITIES.map(([, path]) => path).join('|');
const SERVER = '^api/src/';

/** Not edge and not composition: what a layer's rule is about. */
const INNER = `${EDGE}|${COMPOSITION}`;

/**
 * A rule "`from` imports nothing in `to`", but for each exemption: that `from` may import types
 * (only) from that `to`.
 * @param {string} name
 * @param {string} comment
 * @param {{ path: string; pathNot?: string }} from
 * @param {{ path: string; pathNot?: string }} to
 * @param {{ from?: string; to: string; because: string }[]} [exemptions] (`from` defaults to the rule's)
 */
function never(name, comment, from, to, exemptions = []) {
  const either = (/** @type {(string | undefined)[]} */ ...paths) => paths.filter(Boolean).join('|') || undefined;
  const rule = (/** @type {string} */ ruleName, /** @type {string} */ why, /** @type {object} */ f, /** @type {object} */ t) => ({
    name: ruleName,
    comment: why,
    severity: /** @type {const} */ ('error'),
    from: f,
    to: t,
  });
  return [
    rule(name, comment, from, { ...to, pathNot: either(to.pathNot, ...exemptions.map((e) => e.to)) }),
    ...exemptions.flatMap((e) => [
      rule(
        `${name}-types-only`,
        e.because,
        { path: e.from ?? from.path, pathNot: from.pathNot },
        { path: e.to, dependencyTypesNot: ['type-only'] },
      ),
      ...(e.from ? [rule(name, comment, { path: from.path, pathNot: either(from.pathNot, e.from) }, { path: e.to })] : []),
    ]),
  ];
}

/** Deps is the shape of what every route, service and job is handed: a type, erased at run time. */
const DEPS_TYPE = { to: '^api/src/deps[.]ts$', because: 'Deps is what every route and job is handed; a type only' };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...never(
      'contract-is-the-bottom',
      'api/contract is shared with the renderer: it imports nothing from api/src',
      { path: '^api/contract/' },
      { path: SERVER },
    ),
    ...never(
      'base-imports-only-base',
      'config, errors, files, the text filter and the rate limits know no infrastructure, capability or composition',
      { path: BASE, pathNot: COMPOSITION },
      { path: SERVER, pathNot: BASE },
      [{ to: '^api/src/realtime/redis[.]ts$', because: 'the limits count in the Redis client realtime opens; its type only' }],
    ),
    ...never(
      'infrastructure-imports-no-capability',
      'db/, mail/, jobs/, http/, metrics/ and realtime/ serve every capability and so import none',
      { path: INFRA, pathNot: `${CAPABILITY}|${INNER}` },
      { path: `${CAPABILITY}|${INNER}` },
      [
        DEPS_TYPE,
        {
          from: '^api/src/http/context[.]ts$',
          to: '^api/src/(auth|users)/entity[.]ts$',
          because: "ctx.state names the signed-in user's and session's rows",
        },
        {
          from: '^api/src/http/answers/',
          to: '^api/src/subscriptions/webhook[.]ts$',
          because: "the webhook's answer is described beside the others",
        },
        {
          from: '^api/src/realtime/publisher[.]ts$',
          to: '^api/src/(conversations|notifications)/entity[.]ts$',
          because: 'an event carries the row it announces',
        },
      ],
    ),
    ...CAPABILITIES.flatMap(([name, path], i) =>
      never(
        `${name}-imports-only-capabilities-below`,
        `${name} sits above ${
          CAPABILITIES.slice(0, i)
            .map(([n]) => n)
            .join(', ') || 'no capability'
        }`,
        { path, pathNot: INNER },
        { path: [...CAPABILITIES.slice(i + 1).map(([, p]) => p), INNER].join('|') },
        [
          DEPS_TYPE,
          ...(name === 'identity'
            ? [{ to: '^api/src/conversations/entity[.]ts$', because: "an identity is a side of a conversation; the row's type only" }]
            : []),
          ...(name === 'orders'
            ? [
                {
                  to: '^api/src/catalog/catalog[.]ts$',
                  because: "an order checks stock with the catalogue it is handed; the interface's type only",
                },
              ]
            : []),
          ...(name === 'sharing'
            ? [
                {
                  to: '^api/src/http/web[.]ts$',
                  because: 'the shared pages fill in the PageHead the site middleware asks for; its type only',
                },
              ]
            : []),
        ],
      ),
    ),
    ...never(
      'edge-is-imported-by-composition-only',
      'routes and the socket handlers are mounted by app.ts and server.ts',
      { path: SERVER, pathNot: INNER },
      { path: EDGE },
      [
        {
          from: '^api/src/sharing/',
          to: '^api/src/http/web[.]ts$',
          because: 'the shared pages fill in the PageHead the site middleware asks for; its type only',
        },
      ],
    ),
    ...never(
      'composition-is-imported-by-nothing',
      'app, server, schema, jobs and the test harness assemble the rest',
      { path: `${SERVER}|^api/contract/`, pathNot: COMPOSITION },
      { path: COMPOSITION },
      [DEPS_TYPE],
    ),
    {
      name: 'no-circular-outside-tests',
      comment: 'file-level cycles hide an order: one side is in the wrong folder',
      severity: 'error',
      from: { path: SERVER, pathNot: TESTS },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API yet: swc parses, and keeps `import type` apart.
    parser: 'swc',
    tsPreCompilationDeps: true,
    includeOnly: '^api/',
    doNotFollow: { path: 'node_modules' },
  },
};
