import { z } from 'zod';
import { isoTime } from './common.js';

/**
 * Web Push: the server's VAPID public key, and the devices (browser push subscriptions) of the
 * signed-in user. A subscription's endpoint and keys are the browser's; only its device label
 * and dates are ever shown back.
 */
export const PushPublicKeyAnswer = z.object({
  /** The VAPID public key (base64url, uncompressed P-256): `applicationServerKey` of pushManager.subscribe. */
  publicKey: z.string(),
});
export type PushPublicKeyAnswer = z.infer<typeof PushPublicKeyAnswer>;

const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url');

/** `POST /api/push/subscriptions`: PushSubscription.toJSON() as the browser gives it. */
export const PushSubscriptionBody = z.object({
  endpoint: z.url().max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(80, 100), auth: base64url(16, 32) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** One device that gets the user's notifications. */
export const PushDevice = z.object({
  id: z.string(),
  /** From the User-Agent when it subscribed: 'Chrome on macOS'. */
  device: z.string(),
  createdAt: isoTime,
});
export type PushDevice = z.infer<typeof PushDevice>;

/** `GET /api/push/subscriptions`: the user's devices, newest first. */
export const PushDevicesAnswer = z.object({ devices: z.array(PushDevice) });
export type PushDevicesAnswer = z.infer<typeof PushDevicesAnswer>;

/** `DELETE /api/push/subscriptions/{id}`: one of the user's own; anything else is a 404. */
export const PushSubscriptionParams = z.object({ id: z.string().min(1).max(64) });

/** What a push carries to the service worker (sw.js): rendered by the server's alert rule only. */
export interface PushPayload {
  title: string;
  body: string;
  /** Absolute URL into the app that a click opens. */
  url: string;
  /** One notification per thread or alert: a newer one replaces it. */
  tag: string;
}
