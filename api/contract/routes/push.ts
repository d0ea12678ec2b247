import { PushDevice, PushDevicesAnswer, PushPublicKeyAnswer, PushSubscriptionBody, PushSubscriptionParams } from '../push.js';
import { json, noContent, type RouteSpec } from '../route-table.js';

/** Web Push: the VAPID key and the user's devices. */
export const pushRoutes = {
  'GET /api/push/public-key': { answers: [json(200, PushPublicKeyAnswer, "The server's VAPID public key, for pushManager.subscribe")] },
  'GET /api/push/subscriptions': {
    answers: [json(200, PushDevicesAnswer, "The signed-in user's devices that get notifications, newest first")],
  },
  'POST /api/push/subscriptions': {
    body: PushSubscriptionBody,
    answers: [json(201, PushDevice, 'The device is subscribed (again: the same row, updated)')],
  },
  'DELETE /api/push/subscriptions/:id': {
    params: PushSubscriptionParams,
    answers: [noContent('The device no longer gets notifications')],
  },
} satisfies Record<string, RouteSpec>;
