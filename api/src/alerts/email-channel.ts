import { escapeHtml } from '../../contract/html.js';
import { isLockedAlertKind } from '../../contract/alerts.js';
import { ALERT_OPEN, ALERT_SECURITY_WHY, ALERT_UNSUBSCRIBE, ALERT_WHY } from '../../contract/texts.js';
import type { Deps } from '../deps.js';
import type { MailMessage } from '../mail/mailer.js';
import { renderAlert, type AlertChannel, type AlertDelivery } from './rules.js';
import { unsubscribeToken, unsubscribeUrl } from './unsubscribe.js';

/** The email of one delivery: text and HTML parts from the rule, one-click unsubscribe for kinds that can be turned off. */
export function alertEmail(deps: Pick<Deps, 'config' | 'tokens'>, delivery: AlertDelivery): MailMessage {
  const { publicUrl } = deps.config;
  const alert = renderAlert(publicUrl, delivery);
  const locked = isLockedAlertKind(delivery.kind);
  const unsubscribe = locked ? null : unsubscribeUrl(publicUrl, unsubscribeToken(deps.tokens, delivery.to.userId, delivery.kind));
  const footer = unsubscribe ? `${ALERT_WHY}\n${ALERT_UNSUBSCRIBE}: ${unsubscribe}` : ALERT_SECURITY_WHY;
  const text = `${alert.line}\n\n${ALERT_OPEN}: ${alert.url}\n\n--\n${footer}\n`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(alert.line)}</p>`,
    `<p><a href="${escapeHtml(alert.url)}">${escapeHtml(ALERT_OPEN)}</a></p>`,
    '<hr><p style="color:#666;font-size:13px">',
    unsubscribe
      ? `${escapeHtml(ALERT_WHY)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(ALERT_UNSUBSCRIBE)}</a>`
      : escapeHtml(ALERT_SECURITY_WHY),
    '</p></body></html>',
  ].join('');
  const headers: Record<string, string> = unsubscribe
    ? { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};
  return {
    to: delivery.kind === 'email_changed' && delivery.payload.previousEmail ? delivery.payload.previousEmail : delivery.to.email,
    subject: alert.subject,
    text,
    html,
    messageId: `<alert.${delivery.batchId}@${new URL(publicUrl).hostname}>`,
    headers,
  };
}

/** Email: through the app's mailer (SMTP or the outbox folder). */
export function emailChannel(deps: Pick<Deps, 'config' | 'tokens' | 'mailer'>): AlertChannel {
  return {
    name: 'email',
    reaches: (to) => Promise.resolve(!!to.email),
    deliver: (delivery) => deps.mailer.send(alertEmail(deps, delivery)),
  };
}
