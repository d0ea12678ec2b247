import type { RouteSpec } from '../route-table.js';
import { alertRoutes } from './alerts.js';
import { conversationRoutes } from './conversations.js';
import { linkRoutes } from './links.js';
import { moneyRoutes } from './money.js';
import { payoutRoutes } from './payouts.js';
import { pushRoutes } from './push.js';
import { userRoutes } from './users.js';
import { wishlistRoutes } from './wishlists.js';

/**
 * Every route of the API, by `METHOD /template` as the routers register it: what it takes and
 * how it answers. The routers register their routes by these keys (api/src/http/route.ts), the
 * OpenAPI document is drawn from it, and the renderer's `call()` types each call by it.
 * openapi.test.ts fails for a registered route without an entry and for an entry that names no route.
 */
export const ROUTES = {
  ...userRoutes,
  ...moneyRoutes,
  ...payoutRoutes,
  ...linkRoutes,
  ...conversationRoutes,
  ...wishlistRoutes,
  ...alertRoutes,
  ...pushRoutes,
} satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;
