import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import webpush from 'web-push';
import type { PushPayload } from '../../contract/push.js';
import { resolveEndpoint } from './endpoint.js';
import type { PushSubscriptionRow } from './entity.js';
import type { VapidKeys } from './vapid.js';

/** A push the service has not taken after a day is no news any more. */
export const PUSH_TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 10_000;

/** What the push service answered: `gone` (404/410: the subscription is dead), `refused` (the guard), else its status. */
export type PushOutcome = { ok: true } | { ok: false; gone: boolean; status: number | 'refused' };

/**
 * Encrypts (aes128gcm, RFC 8291) and signs (VAPID, RFC 8292) with web-push, then posts it
 * ourselves: resolved and checked right now, connecting to the address checked.
 */
export async function sendPush(
  vapid: VapidKeys,
  sub: Pick<PushSubscriptionRow, 'endpoint' | 'p256dh' | 'auth'>,
  payload: PushPayload,
  allowPrivate: boolean,
): Promise<PushOutcome> {
  const target = await resolveEndpoint(sub.endpoint, allowPrivate);
  if (!target) return { ok: false, gone: false, status: 'refused' };
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: vapid,
      TTL: PUSH_TTL_SECONDS,
      urgency: 'normal',
    },
  );
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const host = target.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const status = await new Promise<number>((resolve, reject) => {
    const request = (target.url.protocol === 'https:' ? https : http).request(
      {
        method: details.method,
        host,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: details.headers,
        lookup: pinned,
        // The certificate is checked for the endpoint's name (TLS takes no IP address as a name).
        servername: net.isIP(host) ? undefined : host,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('push service timed out')));
    request.on('error', reject);
    request.end(details.body ?? undefined);
  });
  if (status >= 200 && status < 300) return { ok: true };
  return { ok: false, gone: status === 404 || status === 410, status };
}
