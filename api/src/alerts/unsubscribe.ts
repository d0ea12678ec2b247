import crypto from 'node:crypto';
import { ALERT_KINDS, isLockedAlertKind, type AlertKind } from '../../contract/alerts.js';
import type { Deps } from '../deps.js';

const PURPOSE = 'alerts.unsubscribe';

/** The signed token of an unsubscribe link: it names the user and the kind (`userId.kind.mac`). */
export function unsubscribeToken(tokens: Deps['tokens'], userId: string, kind: AlertKind): string {
  return `${userId}.${kind}.${tokens.mac(PURPOSE, `${userId}.${kind}`)}`;
}

/** The user and kind a token names, when its signature checks out and the kind can be turned off. */
export function readUnsubscribeToken(tokens: Deps['tokens'], token: string): { userId: string; kind: AlertKind } | null {
  const [userId, kind, mac, ...rest] = token.split('.');
  if (rest.length || !userId || !mac || !ALERT_KINDS.includes(kind as AlertKind)) return null;
  const expected = Buffer.from(tokens.mac(PURPOSE, `${userId}.${kind}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (isLockedAlertKind(kind as AlertKind)) return null;
  return { userId, kind: kind as AlertKind };
}

/** The one-click link (RFC 8058) of `List-Unsubscribe` and of the email's footer. */
export const unsubscribePath = (token: string) => `/api/alerts/unsubscribe?t=${encodeURIComponent(token)}`;
export const unsubscribeUrl = (publicUrl: string, token: string) => `${publicUrl}${unsubscribePath(token)}`;
