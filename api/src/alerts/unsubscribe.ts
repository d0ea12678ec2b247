import crypto from 'node:crypto';
import { ALERT_KINDS, isLockedAlertKind, type AlertKind } from '../../contract/alerts.js';
import type { Deps } from '../deps.js';

const PURPOSE = 'alerts.unsubscribe';

/** How long an unsubscribe link works after its email was sent: an old email is not a key for ever. */
export const UNSUBSCRIBE_LINK_DAYS = 60;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key unsubscribe links are sealed with: the server's secret, kept apart for this purpose. */
const sealingKey = (tokens: Deps['tokens']) => Buffer.from(tokens.mac(PURPOSE, 'aes-256-gcm'), 'base64url');

/**
 * The token of one email's unsubscribe link: the user, the kind and when it was made, sealed
 * (AES-256-GCM), so it names nobody in clear and cannot be forged. Each email gets a new one.
 */
export function unsubscribeToken(tokens: Deps['tokens'], userId: string, kind: AlertKind, now = new Date()): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealingKey(tokens), iv);
  const sealed = Buffer.concat([cipher.update(`${userId}.${kind}.${Math.floor(now.getTime() / 1000)}`, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The user and kind a token names, while it is genuine, not expired, and the kind can be turned off. */
export function readUnsubscribeToken(tokens: Deps['tokens'], token: string, now = new Date()): { userId: string; kind: AlertKind } | null {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== token) return null;
  let opened: string;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealingKey(tokens), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    opened = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
  const [userId, kind, made, ...rest] = opened.split('.');
  if (rest.length || !userId || !ALERT_KINDS.includes(kind as AlertKind) || !/^\d+$/.test(made)) return null;
  const ageSeconds = now.getTime() / 1000 - Number(made);
  if (ageSeconds < -300 || ageSeconds > UNSUBSCRIBE_LINK_DAYS * 86_400) return null;
  if (isLockedAlertKind(kind as AlertKind)) return null;
  return { userId, kind: kind as AlertKind };
}

/** The one-click link (RFC 8058) of `List-Unsubscribe` and of the email's footer. */
export const unsubscribePath = (token: string) => `/api/alerts/unsubscribe?t=${encodeURIComponent(token)}`;
export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}${unsubscribePath(token)}`;
