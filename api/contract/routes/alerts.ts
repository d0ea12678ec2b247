import { AlertPreferencesAnswer, PutAlertPreferencesBody, UnsubscribeAnswer, UnsubscribeQuery } from '../alerts.js';
import { json, type RouteSpec } from '../route-table.js';

/** Alert switches and the emails' unsubscribe link. */
export const alertRoutes = {
  'GET /api/alerts/preferences': { answers: [json(200, AlertPreferencesAnswer, 'Every alert kind with its channels, defaults applied')] },
  'PUT /api/alerts/preferences': {
    body: PutAlertPreferencesBody,
    answers: [json(200, AlertPreferencesAnswer, 'The switches as saved (security kinds cannot be turned off)')],
  },
  'POST /api/alerts/unsubscribe': {
    query: UnsubscribeQuery,
    answers: [
      json(200, UnsubscribeAnswer, "That kind's email is off (one-click, RFC 8058; again: the same answer)"),
      { status: 303, description: 'A browser is sent back to the page, which says it is done' },
    ],
  },
  'GET /api/alerts/unsubscribe': {
    query: UnsubscribeQuery,
    answers: [{ status: 200, media: 'text/html', description: 'A page with a button that turns the email off (a GET changes nothing)' }],
  },
} satisfies Record<string, RouteSpec>;
