import type { AlertKind } from './alerts.js';
import * as t from './texts.js';

/**
 * The words and page of every alert kind, for every channel: email and push (api/src/alerts/rules.ts)
 * and the live one, the system notification an open but hidden tab or the desktop app shows.
 *
 * Anonymity (docs/anonymity.md): no text names anyone or carries anything about who caused it:
 * no name, no avatar, no amount, so an alert cannot tell two givers apart.
 */
export interface AlertText {
  subject: string;
  line: string;
}

/** Where an alert's page is: a thread, or a page of the recipient's own. */
export interface AlertPlace {
  conversationId: string | null;
  username: string;
}

/** The subject and one line of `count` alerts of `kind` told at once (a digest of messages). */
export function alertText(kind: AlertKind, count = 1): AlertText {
  switch (kind) {
    case 'gift':
      return { subject: t.ALERT_GIFT_SUBJECT, line: t.ALERT_GIFT_BODY };
    case 'message':
      return { subject: t.alertMessagesSubject(count), line: t.alertMessagesBody(count) };
    case 'order_shipped':
      return { subject: t.ALERT_ORDER_SHIPPED_SUBJECT, line: t.ALERT_ORDER_SHIPPED_BODY };
    case 'order_delivered':
      return { subject: t.ALERT_ORDER_DELIVERED_SUBJECT, line: t.ALERT_ORDER_DELIVERED_BODY };
    case 'order_address':
      return { subject: t.ALERT_ORDER_ADDRESS_SUBJECT, line: t.ALERT_ORDER_ADDRESS_BODY };
    case 'subscription_renewed':
      return { subject: t.ALERT_RENEWED_SUBJECT, line: t.ALERT_RENEWED_BODY };
    case 'subscription_renews_soon':
      return { subject: t.ALERT_RENEWS_SOON_SUBJECT, line: t.ALERT_RENEWS_SOON_BODY };
    case 'subscription_failed':
      return { subject: t.ALERT_FAILED_SUBJECT, line: t.ALERT_FAILED_BODY };
    case 'password_changed':
      return { subject: t.ALERT_PASSWORD_SUBJECT, line: t.ALERT_PASSWORD_BODY };
    case 'email_changed':
      return { subject: t.ALERT_EMAIL_SUBJECT, line: t.ALERT_EMAIL_BODY };
    case 'new_sign_in':
      return { subject: t.ALERT_SIGN_IN_SUBJECT, line: t.ALERT_SIGN_IN_BODY };
  }
}

/** The app's path an alert opens. */
export function alertPath(kind: AlertKind, place: AlertPlace): string {
  const user = encodeURIComponent(place.username);
  switch (kind) {
    case 'gift':
    case 'message':
      return place.conversationId ? `/messages/${encodeURIComponent(place.conversationId)}` : '/conversations';
    case 'order_shipped':
    case 'order_delivered':
      return '/orders';
    case 'order_address':
      return `/profile/${user}/settings#address`;
    case 'subscription_renewed':
    case 'subscription_renews_soon':
    case 'subscription_failed':
      return `/manage-subscription/${user}`;
    case 'password_changed':
    case 'email_changed':
      return '/login';
    case 'new_sign_in':
      return `/profile/${user}/settings#devices`;
  }
}

/** A system notification of the live channel: the alert's subject; a gift's or message's own words, which the thread shows anyway. */
export function liveAlert(kind: AlertKind, preview?: string): { title: string; body: string } {
  const { subject, line } = alertText(kind);
  return { title: subject, body: preview ?? line };
}
