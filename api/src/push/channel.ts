import type { PushPayload } from '../../contract/push.js';
import type { Deps } from '../deps.js';
import { renderAlert, type AlertChannel, type AlertDelivery } from '../alerts/rules.js';
import { sendPush } from './send.js';
import { dropSubscription, subscriptionsOf } from './subscriptions.js';
import { resolveVapid } from './vapid.js';

/**
 * What a push carries, from the alert rule only (anonymity: nothing about who caused it). The
 * tag is the thread's, so a newer push about it replaces the notification, or the batch's.
 */
export function pushPayload(publicUrl: string, delivery: AlertDelivery): PushPayload {
  const alert = renderAlert(publicUrl, delivery);
  return {
    title: alert.subject,
    body: alert.line,
    url: alert.url,
    tag: delivery.conversationId ? `conversation:${delivery.conversationId}` : `alert:${delivery.batchId}`,
  };
}

/** Web Push to every device the user subscribed: a dead subscription (404/410) is removed, other failures retry the batch. */
export function pushChannel(deps: Pick<Deps, 'db' | 'config' | 'log'>): AlertChannel {
  const vapid = resolveVapid(deps.config);
  const allowPrivate = deps.config.pushAllowPrivateEndpoints;
  return {
    name: 'push',
    reaches: async (to) => (await subscriptionsOf(deps.db, to.userId)).length > 0,
    deliver: async (delivery) => {
      const payload = pushPayload(deps.config.publicUrl, delivery);
      const failed: string[] = [];
      for (const sub of await subscriptionsOf(deps.db, delivery.to.userId)) {
        const outcome = await sendPush(vapid, sub, payload, allowPrivate).catch((err: unknown) => {
          deps.log.warn({ err, subscription: sub.id }, 'push failed');
          return { ok: false as const, gone: false, status: 0 };
        });
        if (outcome.ok) continue;
        if (outcome.gone) await dropSubscription(deps.db, sub.id);
        // Resolving to an address inside now (rebinding): never sent there, and not retried.
        else if (outcome.status === 'refused') deps.log.warn({ subscription: sub.id }, 'push endpoint refused');
        else failed.push(String(outcome.status));
      }
      // A retry sends to every device again: the same tag replaces what a device already shows.
      if (failed.length) throw new Error(`push service answered ${failed.join(', ')}`);
    },
  };
}
