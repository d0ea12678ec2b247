import { z } from 'zod';

/**
 * Alerts: what Giftlink tells a user outside an open tab (email now, Web Push later). The kinds,
 * their channels and the preference bodies; the texts are in texts.ts, the rules in
 * api/src/alerts/rules.ts.
 */
export const ALERT_KINDS = [
  'gift',
  'message',
  'order_shipped',
  'order_delivered',
  'order_address',
  'subscription_renewed',
  'subscription_renews_soon',
  'subscription_failed',
  'password_changed',
  'email_changed',
  'new_sign_in',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_CHANNELS = ['email', 'push'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** Security kinds: always sent, on every channel; a preference cannot turn them off. */
export const LOCKED_ALERT_KINDS: readonly AlertKind[] = ['password_changed', 'email_changed', 'new_sign_in'];

export const isLockedAlertKind = (kind: AlertKind): boolean => LOCKED_ALERT_KINDS.includes(kind);

/** One kind in `GET /api/alerts/preferences`: each channel on or off (defaults applied), `locked` for security kinds. */
export const AlertPreference = z.object({
  kind: z.enum(ALERT_KINDS),
  label: z.string(),
  locked: z.boolean(),
  channels: z.object({ email: z.boolean(), push: z.boolean() }),
});
export type AlertPreference = z.infer<typeof AlertPreference>;

/** `GET` and `PUT /api/alerts/preferences`: every kind, in ALERT_KINDS order, and the channels that deliver yet. */
export const AlertPreferencesAnswer = z.object({
  preferences: z.array(AlertPreference),
  available: z.array(z.enum(ALERT_CHANNELS)),
});
export type AlertPreferencesAnswer = z.infer<typeof AlertPreferencesAnswer>;

/** `POST /api/alerts/unsubscribe?t=`: the kind whose email is now off. */
export const UnsubscribeAnswer = z.object({ unsubscribed: z.literal(true), kind: z.enum(ALERT_KINDS) });
export type UnsubscribeAnswer = z.infer<typeof UnsubscribeAnswer>;

/** `PUT /api/alerts/preferences`: the switches to change; the others stay. */
export const PutAlertPreferencesBody = z
  .object({
    preferences: z
      .array(z.object({ kind: z.enum(ALERT_KINDS), channel: z.enum(ALERT_CHANNELS), enabled: z.boolean() }).strict())
      .min(1)
      .max(ALERT_KINDS.length * ALERT_CHANNELS.length),
  })
  .strict();
export type PutAlertPreferences = z.infer<typeof PutAlertPreferencesBody>;

/** `?t=` of `/api/alerts/unsubscribe`: the signed token of one user and kind. */
export const UnsubscribeQuery = z.object({ t: z.string().min(1).max(512) });
