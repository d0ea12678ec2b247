import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../api/contract/push.js';
import { PUSH_DENIED, PUSH_TURN_ON } from '../api/contract/push-texts.js';
import { ALERT_GIFT_BODY, ALERT_GIFT_SUBJECT } from '../api/contract/texts.js';
import { startPushService, type TestPushService } from '../api/src/push/testing.js';
import {
  sectionShots,
  allowConsoleError,
  launchBrowser,
  openAs,
  registerViaApi,
  screenshots,
  startApp,
  VIEWPORTS,
  type ApiAccount,
  type RunningApp,
} from './harness.js';

/**
 * The installable app: the manifest and its icons, the service worker controlling the page, a
 * push the server really sent (to the story's own push service, which decrypts it) delivered to
 * the worker through the DevTools protocol and shown as a notification, its click opening the
 * thread, and the offline page.
 */
let app: RunningApp;
let browser: Browser;
let push: TestPushService;
let nia: ApiAccount;

/** A phone's browser: the device label the server makes of it. */
const PHONE_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

async function call<T>(who: ApiAccount, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-auth-token': who.token, 'user-agent': PHONE_CHROME },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

beforeAll(async () => {
  push = await startPushService();
  [app, browser] = await Promise.all([startApp({ PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', ALERT_EMAIL_DELAY_MS: '0' }), launchBrowser()]);
  nia = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'nia');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await push?.close();
});

/** PNG width and height from its IHDR. */
const pngSize = (bytes: Buffer) => [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];

/** Waits until a service worker controls `page`; answers its registration id (CDP). */
async function controlled(page: Page, cdp: CDPSession): Promise<string> {
  const registered = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${app.url}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
  return registered;
}

describe('the installable app', () => {
  it('has a manifest with its icons, found and parsed by the browser', async () => {
    const page = await openAs(browser, app, nia);
    const cdp = await page.context().newCDPSession(page);
    const { url, errors, parsed } = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string }[];
      parsed?: { name: string; shortName: string; startUrl: string; display: string; icons: { url: string; purpose: string[] }[] };
    };
    expect(url).toBe(`${app.url}/manifest.webmanifest`);
    expect(errors).toEqual([]);
    const res = await page.request.get(`${app.url}/manifest.webmanifest`);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({
      name: 'Giftlink',
      short_name: 'Giftlink',
      start_url: '/',
      display: 'standalone',
      theme_color: '#6a4ce0',
    });
    expect(parsed?.display ?? manifest.display).toBe('standalone');
    for (const icon of manifest.icons) {
      const png = await page.request.get(`${app.url}${icon.src}`);
      expect([icon.src, png.status()]).toEqual([icon.src, 200]);
      expect(pngSize(await png.body()).join('x')).toBe(icon.sizes);
    }
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const sw = await page.request.get(`${app.url}/sw.js`);
    expect(sw.headers()['cache-control']).toBe('no-cache');
    await page.context().close();
  });

  it("shows the server's push as a notification, and its click opens the thread", async () => {
    // Fresh accounts per attempt: a retry must not meet the link the first attempt left open.
    const owner = await registerViaApi(app, nia.inviteCodes.shift()!, `ria${Date.now() % 100000}`);
    const giver = await registerViaApi(app, owner.inviteCodes[0], `gus${Date.now() % 100000}`);
    const page = await openAs(browser, app, owner, { viewport: VIEWPORTS.desktop });
    const context = page.context();
    // Browser.grantPermissions under the hood: no prompt in the story.
    await context.grantPermissions(['notifications'], { origin: app.url });
    const cdp = await context.newCDPSession(page);
    const registrationId = await controlled(page, cdp);
    // Chromium's own installability check (what Lighthouse's installable audit read): nothing but the
    // story's off-the-record context ('in-incognito') stands in the way.
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);

    // A device of the owner's at the story's push service; then the owner leaves (no socket), and the giver gives.
    const device = push.browser();
    await call(owner, 'POST', '/api/push/subscriptions', device.subscription);
    await page.goto('about:blank');
    await call(owner, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
    const link = await call<{ updatedLink: { id: string } }>(owner, 'POST', `/links/${owner.username}`, {});
    await call(giver, 'POST', '/api/billing-settings-deposit', { balance: 5 });
    const gift = await call<{ conversationId: string }>(giver, 'POST', '/statuses/api/gives', {
      postId: link.updatedLink.id,
      type: 'currency',
      amount: 1,
    });
    // The alerts' push job runs every 10 s (the owner's new sign-in is pushed too: a security alert).
    const gifts = () =>
      push.received.filter((p) => p.browser === device.id && (JSON.parse(p.text) as PushPayload).title === ALERT_GIFT_SUBJECT);
    await expect
      .poll(() => gifts().length, { timeout: 45_000, interval: 500 })
      .toBe(1)
      .catch((err: unknown) => {
        // What the push service got and the server said: the story alone cannot tell why nothing came.
        throw new Error(
          `${String(err)}\nreceived: ${JSON.stringify(push.received.map((p) => p.browser))}\nrefused: ${JSON.stringify(push.refused)}\nserver:\n${app.output().slice(-4000)}`,
        );
      });
    expect(push.refused).toEqual([]);
    const [sent] = gifts();
    const payload = JSON.parse(sent.text) as PushPayload;
    expect(payload).toEqual({
      title: ALERT_GIFT_SUBJECT,
      body: ALERT_GIFT_BODY,
      url: `${app.url}/messages/${gift.conversationId}`,
      tag: `conversation:${gift.conversationId}`,
    });

    // Back in the app (a tab the click can send to the thread), the decrypted push goes to the worker.
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.url, registrationId, data: sent.text });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data as unknown,
        })),
      );
    await expect
      .poll(shown, { timeout: 10_000 })
      .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } }]);

    // CDP cannot click a system notification: the worker gets the click event with the notification it shows.
    const [worker] = context.serviceWorkers();
    await worker.evaluate(async () => {
      // The worker's own globals, which the page's DOM types do not name.
      const scope = self as unknown as {
        registration: { getNotifications(): Promise<unknown[]> };
        NotificationEvent: new (type: string, init: { notification: unknown }) => Event;
        dispatchEvent(event: Event): boolean;
      };
      const [notification] = await scope.registration.getNotifications();
      const click = new scope.NotificationEvent('notificationclick', { notification });
      let handled: Promise<unknown> = Promise.resolve();
      Object.defineProperty(click, 'waitUntil', { value: (p: Promise<unknown>) => (handled = p) });
      scope.dispatchEvent(click);
      await handled;
    });
    await page.waitForURL(`${app.url}/messages/${gift.conversationId}`);
    await page.getByText('Anonymous').first().waitFor();
    expect(await shown()).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows the offline page for a navigation without network', async () => {
    const page = await openAs(browser, app, nia);
    const cdp = await page.context().newCDPSession(page);
    await controlled(page, cdp);
    // The app's socket, polling when the network goes, reports the lost connection in the console.
    allowConsoleError(/ERR_INTERNET_DISCONNECTED/);
    await page.context().setOffline(true);
    await page.goto(`${app.url}/conversations`);
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    await screenshots(page, 'offline');
    await page.context().setOffline(false);
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.context().close();
  });

  it('Settings → Notifications lists the devices, each removable, and offers this one', async () => {
    const page = await openAs(browser, app, nia);
    const device = push.browser();
    await call(nia, 'POST', '/api/push/subscriptions', device.subscription);
    await page.goto(`${app.url}/profile/nia/settings#notifications`);
    await page.getByRole('switch', { name: 'Gifts you receive: Push' }).waitFor();
    // Not granted (the story answers no prompt): the browser's refusal is told, nothing subscribed.
    await page.getByRole('button', { name: PUSH_TURN_ON }).click();
    await page.getByText(PUSH_DENIED).waitFor();
    const remove = page.getByRole('button', { name: /^Remove / });
    await expect.poll(() => remove.count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.getByText('Chrome on Android').count()).toBeGreaterThanOrEqual(1);
    await sectionShots(page, 'settings-push', remove.first());
    await screenshots(page, 'settings-push-full');
    const before = await remove.count();
    await remove.first().click();
    await expect.poll(() => remove.count()).toBe(before - 1);
    await page.context().close();
  });

  it("logging out removes this browser's device; the account's other devices stay", async () => {
    const owner = await registerViaApi(app, nia.inviteCodes.shift()!, `lea${Date.now() % 100000}`);
    const page = await openAs(browser, app, owner, { viewport: VIEWPORTS.desktop });
    // The browser's own session (its cookie) subscribes a device, as the page does once the browser's push service answers.
    const here = push.browser();
    const status = await page.evaluate(
      async (body) =>
        (
          await fetch('/api/push/subscriptions', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).status,
      here.subscription,
    );
    expect(status).toBe(201);
    // Another session of the account (the story's API token) has a device of its own.
    const elsewhere = await call<{ id: string }>(owner, 'POST', '/api/push/subscriptions', push.browser().subscription);
    const devices = async () =>
      (await call<{ devices: { id: string }[] }>(owner, 'GET', '/api/push/subscriptions')).devices.map((d) => d.id);
    expect(await devices()).toHaveLength(2);
    await page.goto(`${app.url}/profile/${owner.username}/settings`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${app.url}/login`);
    expect(await devices()).toEqual([elsewhere.id]);
    await page.context().close();
  });
});
