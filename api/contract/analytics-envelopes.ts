import { z } from 'zod';
import { ANALYTICS_EVENT_TYPES, ANALYTICS_PAGE_URL_MAX_LENGTH, ENVELOPE_RULES } from './analytics.js';

/**
 * The envelopes of the /analytics calls (PRODUCT.md §7). The event payloads themselves are checked by the
 * contract's plain rules (`eventDetailsError`, PRODUCT.md §5), which the renderer runs too: zod stays out
 * of its bundle, so these envelope schemas live here, apart from analytics.ts, and the renderer only
 * takes types from them (through the route table).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sessionId = z.string({ error: ENVELOPE_RULES.sessionId }).regex(UUID, { error: ENVELOPE_RULES.sessionId });
/** Only checked against the signed-in user: identity comes from the session. */
const userId = z.string().max(64).nullable().optional();
const pageUrl = z.string({ error: ENVELOPE_RULES.pageUrl }).max(ANALYTICS_PAGE_URL_MAX_LENGTH, { error: ENVELOPE_RULES.pageUrl });

export const StartSessionBody = z.object({ session_id: sessionId, user_id: userId });
export const PageviewBody = StartSessionBody.extend({ page_url: pageUrl });
export const LogEventBody = PageviewBody.extend({
  event_type: z.enum(ANALYTICS_EVENT_TYPES, { error: ENVELOPE_RULES.eventType }),
  event_details: z.unknown(),
  timestamp: z.union([z.string().max(64), z.number()]).optional(),
});
