import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_BAD_ENDPOINT } from '../../contract/texts.js';
import { loadConfig } from '../config.js';
import { deliverAlerts } from '../alerts/job.js';
import { giveGift } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { pushChannel } from './channel.js';
import { isPublicAddress } from './endpoint.js';
import { PushSubscriptionEntity } from './entity.js';
import { startPushService, type TestPushService } from './testing.js';

/** The SSRF guard, without PUSH_ALLOW_PRIVATE_ENDPOINTS: as in production. */
let push: TestPushService;
let server: TestServer;
beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({ ALERT_EMAIL_DELAY_MS: '0' });
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});

describe('push endpoints', () => {
  it('only https on public addresses is accepted at subscribe', async () => {
    const [who] = await buildUsers(server, 1, 'pue');
    const keys = { p256dh: push.browser().subscription.keys.p256dh, auth: crypto.randomBytes(16).toString('base64url') };
    const post = (endpoint: string) => server.request('POST', '/api/push/subscriptions', { token: who.token, body: { endpoint, keys } });
    for (const endpoint of [
      `${push.url}/push/x`,
      'https://127.0.0.1/push',
      'https://10.0.0.1/push',
      'https://172.16.5.4/push',
      'https://192.168.1.1/push',
      'https://169.254.169.254/latest',
      'https://100.64.0.1/push',
      'https://0.0.0.0/push',
      'https://224.0.0.1/push',
      'https://[::1]/push',
      'https://[fd00::1]/push',
      'https://[fe80::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://[::ffff:7f00:1]/push',
      'https://[::7f00:1]/push',
      'https://[2002:7f00:1::1]/push',
      'https://[64:ff9b::127.0.0.1]/push',
      'https://localhost/push',
      'https://nowhere.invalid/push',
      'http://93.184.215.14/push',
    ]) {
      const res = await post(endpoint);
      expect([endpoint, res.status, res.body]).toEqual([endpoint, 400, { error: 'bad_push_endpoint', message: PUSH_BAD_ENDPOINT }]);
    }
    expect((await post('https://93.184.215.14/push/abc')).status).toBe(201);
  });

  it('a stored endpoint that is not public is checked again before a send, and nothing goes', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pus');
    const browser = push.browser();
    // As if it had resolved to a public address at subscribe and to loopback now.
    await server.deps.db.transaction((em) =>
      em.insert(PushSubscriptionEntity, {
        id: crypto.randomUUID(),
        userId: recipient.user._id,
        endpoint: browser.endpoint,
        ...browser.subscription.keys,
        device: 'Chrome on macOS',
        createdAt: new Date(),
      }),
    );
    await giveGift(server, giver, recipient);
    await deliverAlerts(server.deps, pushChannel(server.deps), new Date());
    expect(push.received).toEqual([]);
  });

  it('ranges: private, loopback, link-local, CGNAT, unspecified and multicast are not public, in every notation', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '239.1.1.1',
      '192.0.2.1',
      '::',
      '::1',
      'fc00::1',
      'fdff::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      // IPv4-mapped, dotted and hex, short and long, either case.
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:7F00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
      '::ffff:a00:1',
      '::ffff:c0a8:101',
      '::ffff:a9fe:a9fe',
      // IPv4-translated (SIIT).
      '::ffff:0:7f00:1',
      // IPv4-compatible.
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      // 6to4 wrapping a private IPv4 (10.0.0.1, 127.0.0.1, 192.168.1.1).
      '2002:a00:1::',
      '2002:7f00:1::1',
      '2002:c0a8:101::1',
      // NAT64, well-known and local-use, wrapping one.
      '64:ff9b::7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::a00:1',
      // Teredo.
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not an address',
    ])
      expect([a, isPublicAddress(a)]).toEqual([a, false]);
    for (const a of ['93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808'])
      expect([a, isPublicAddress(a)]).toEqual([a, true]);
  });

  it('the test setting is refused in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' })).toThrow(/PUSH_ALLOW_PRIVATE_ENDPOINTS/);
  });
});
