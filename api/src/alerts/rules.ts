/**
 * The one rule of what Giftlink tells whom outside an open tab: per alert kind its text, the page
 * of the app it opens (api/contract/alert-texts.ts), whether it can be turned off and its default per
 * channel. Email and push (email-channel.ts, push/channel.ts) render from `renderAlert`; the live
 * channel (a hidden tab's or the desktop app's system notification) from the same texts.
 *
 * Anonymity (docs/anonymity.md): no alert names anyone or carries anything about who caused it:
 * no name, no avatar, no amount. A gift's and a message's texts are the same whoever the giver is
 * and whether they gave anonymously or by name, so an alert cannot tell two givers apart.
 */
import {
  ALERT_KINDS,
  isLockedAlertKind,
  type AlertChannel as ChannelName,
  type AlertKind,
  type AlertPreference,
} from '../../contract/alerts.js';
import * as t from '../../contract/texts.js';
import { alertPath, alertText } from '../../contract/alert-texts.js';

/** What an alert row keeps (alerts.payload): ids of what it is about, nothing about who did it. */
export interface AlertPayload {
  /** A gift's or a message's message id: reading it before the email goes makes the email moot. */
  messageId?: string;
  orderId?: string;
  /** email_changed: the address it was changed from, which is told too. */
  previousEmail?: string;
}

/** What a channel shows: a subject, one line and the page to open. */
export interface RenderedAlert {
  subject: string;
  line: string;
  /** Absolute URL into the app. */
  url: string;
}

/** The recipient as the rule sees them: where their pages are. */
export interface AlertRecipient {
  userId: string;
  username: string;
  email: string;
}

/** One delivery: the alerts of one batch (a conversation's messages of 15 minutes, or one alert). */
export interface AlertDelivery {
  to: AlertRecipient;
  kind: AlertKind;
  /** Stable for the batch: a resend after a crash is the same delivery (the email's Message-ID). */
  batchId: string;
  count: number;
  conversationId: string | null;
  payload: AlertPayload;
}

/** A way of telling: email or Web Push. `deliver` renders with `renderAlert`; a throw leaves the batch to be retried. */
export interface AlertChannel {
  name: ChannelName;
  /** Whether the user can be told this way at all (an email address; a device subscribed): else the alert is skipped. */
  reaches(to: AlertRecipient): Promise<boolean>;
  deliver(delivery: AlertDelivery): Promise<void>;
}

/** Whether a user who has not chosen gets this kind on this channel: every kind, every channel. */
export const defaultEnabled = (_kind: AlertKind, _channel: ChannelName): boolean => true;

/** Whether the user gets this kind on this channel, given their stored choice (undefined: none). */
export function isEnabled(kind: AlertKind, channel: ChannelName, stored: boolean | undefined): boolean {
  if (isLockedAlertKind(kind)) return true;
  return stored ?? defaultEnabled(kind, channel);
}

/** Message alerts of one conversation go as one email at most this often. */
export const MESSAGE_BATCH_WINDOW_MS = 15 * 60_000;

/** Kinds whose alerts of one conversation wait for each other and go as one. */
export const isBatched = (kind: AlertKind): boolean => kind === 'message';

/** Every kind with its channels for `GET /api/alerts/preferences`. */
export function presentPreferences(stored: { kind: AlertKind; channel: ChannelName; enabled: boolean }[]): AlertPreference[] {
  const chosen = new Map(stored.map((p) => [`${p.kind}:${p.channel}`, p.enabled]));
  return ALERT_KINDS.map((kind) => ({
    kind,
    label: t.ALERT_LABELS[kind],
    locked: isLockedAlertKind(kind),
    channels: {
      email: isEnabled(kind, 'email', chosen.get(`${kind}:email`)),
      push: isEnabled(kind, 'push', chosen.get(`${kind}:push`)),
    },
  }));
}

/** The alert's words and page, for any channel (api/contract/alert-texts.ts, which the live channel renders from too). */
export function renderAlert(publicUrl: string, delivery: AlertDelivery): RenderedAlert {
  const { subject, line } = alertText(delivery.kind, delivery.count);
  const url = publicUrl + alertPath(delivery.kind, { conversationId: delivery.conversationId, username: delivery.to.username });
  return { subject, line, url };
}
