import { PushDevice, PushDevicesAnswer, PushPublicKeyAnswer } from '../../../contract/push.js';
import { json, noContent, type AnswerMap } from './shape.js';

/** Web Push: the VAPID key and the user's devices. */
export const pushAnswers: AnswerMap = {
  'GET /api/push/public-key': [json(200, PushPublicKeyAnswer, "The server's VAPID public key, for pushManager.subscribe")],
  'GET /api/push/subscriptions': [json(200, PushDevicesAnswer, "The signed-in user's devices that get notifications, newest first")],
  'POST /api/push/subscriptions': [json(201, PushDevice, 'The device is subscribed (again: the same row, updated)')],
  'DELETE /api/push/subscriptions/:id': [noContent('The device no longer gets notifications')],
};
