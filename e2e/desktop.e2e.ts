/// <reference lib="dom" />
// The desktop app's story in Chromium: the real renderer (the built site) with the preload's IPC
// bridge (`window.giftlinkDesktopIpc`) wired through Playwright's exposeBinding to the REAL main-
// process IPC handlers (electron/main/ipc.ts) running here in Node, with the real keychain (keytar
// absent, so safeStorage into a store — a fake of Electron's safeStorage), the real SQLite image
// cache on a temp dir, the real notifier and tray (on fakes of Electron's Notification and Tray)
// and the real save handler (a fake dialog answering a temp file).
//
// What cannot run here: main's `session.webRequest` header injection. Instead `page.route` adds
// the headers to API requests with the shell's own `withApiHeaders`, the token read from the
// keychain module, exactly what main does. The page is served by the API's own origin (the built
// site), so the API base URL is '' here; the desktop build differs only by that address.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import type { BrowserWindow, Notification, NotificationConstructorOptions, SafeStorage, Tray } from 'electron';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_COOKIE } from '../api/contract/visitor.js';
import { alertText } from '../api/contract/alert-texts.js';
import { withApiHeaders } from '../electron/main/api-headers.js';
import { apiOriginOf } from '../electron/main/api-origin.js';
import { openImageCache, type DesktopImageCache } from '../electron/main/image-cache.js';
import { createIpcHandler } from '../electron/main/ipc.js';
import { createKeychain, STORE_KEY, type Keychain, type KeyValueStore } from '../electron/main/keychain.js';
import { createNotifier } from '../electron/main/notifications.js';
import { saveFile } from '../electron/main/save.js';
import { createTray, type AppTray } from '../electron/main/tray.js';
import { launchBrowser, logIn, registerViaApi, screenshots, startApp, VIEWPORTS, type ApiAccount, type RunningApp } from './harness.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let app: RunningApp;
let browser: Browser;
let ana: ApiAccount;
let bob: ApiAccount;
let tmp: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-desktop-e2e-'));
  ana = await registerViaApi(app, app.inviteUrl.split('/').pop()!, 'ana');
  bob = await registerViaApi(app, ana.inviteCodes[0], 'bob');
  // Ana asks for money with a receive link and Bob gives $5 (an anonymous gift thread); her wishlist has two items.
  const link = await app.request(ana, 'POST', '/links/create', {
    details: { giveorreceive: 'receive', type: 'currency', amount: 10, quantity: 3 },
  });
  await app.request(bob, 'POST', '/api/billing-settings-deposit', { balance: 20 });
  const give = await app.request(bob, 'POST', '/statuses/api/gives', { postId: link.body.id, type: 'currency', amount: 5 });
  if (give.status !== 201) throw new Error(`give failed: ${JSON.stringify(give.body)}`);
  const items: { itemId: string }[] = [];
  for (const q of ['mug', 'book'])
    items.push({ itemId: (await app.request<{ itemId: string }[]>(ana, 'GET', `/api/products/search?q=${q}`)).body[0].itemId });
  const saved = await app.request(ana, 'PUT', '/wishlists/update', { username: 'ana', items });
  if (saved.status !== 200) throw new Error(`wishlist failed: ${JSON.stringify(saved.body)}`);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ---- fakes of Electron's own APIs (never of ours) -------------------------------------------------

/** safeStorage with a real (if toy) cipher: what lands in the store is not the token. */
const fakeSafeStorage: Pick<
  SafeStorage,
  'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'
> = {
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((b) => b ^ 0x5a)),
  decryptStringAsync: async (bytes) => ({ result: Buffer.from([...bytes].map((b) => b ^ 0x5a)).toString('utf8'), shouldReEncrypt: false }),
};

/** Electron's Notification: records what was shown; `click()` plays the user's click. */
class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported = () => true;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show() {
    FakeNotification.shown.push(this);
  }
  click() {
    this.emit('click');
  }
}

/** Electron's Tray: keeps the tooltip and the menu template. */
class FakeTray extends EventEmitter {
  static last: FakeTray | undefined;
  tooltip = '';
  constructor() {
    super();
    FakeTray.last = this;
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu() {}
  destroy() {}
}

interface Desktop {
  keychain: Keychain;
  store: Map<string, unknown>;
  imageCache: DesktopImageCache;
  tray: AppTray;
  badge: () => number;
  /** What the IPC handler refused (wrong sender, bad payload): nothing, in this story. */
  refusals: string[];
  /** An IPC call from the page's frame at `frameUrl`, checked by the real handler as main checks it. */
  handleIpc: (channel: string, frameUrl: string, payload: unknown) => Promise<unknown>;
  /** The headers main would add: the version the "installed app" sends. */
  version: { current: string };
}

/** The main process's modules, wired as electron/main/index.ts wires them, on fakes of Electron. */
function mainProcess(page: () => Page): Desktop {
  const store = new Map<string, unknown>();
  const refusals: string[] = [];
  const kv: KeyValueStore = { get: (k) => store.get(k), set: (k, v) => void store.set(k, v), delete: (k) => void store.delete(k) };
  const keychain = createKeychain({ keytar: null, safeStorage: fakeSafeStorage, store: kv, platform: 'linux', log: () => {} });
  const imageCache = openImageCache({ file: path.join(tmp, 'image-cache.sqlite') });
  let badge = 0;
  const tray = createTray({
    Tray: FakeTray as unknown as new (icon: unknown) => Tray,
    Menu: { buildFromTemplate: (t) => t as never },
    app: {
      setBadgeCount: (n?: number) => {
        badge = n ?? 0;
        return true;
      },
    },
    icon: 'tray.png',
    actions: { open: () => {}, openRoute: () => {}, quit: () => {} },
  });
  // The window: never focused (the user is elsewhere); `send` is main's webContents.send to the page.
  const win = {
    isDestroyed: () => false,
    isVisible: () => true,
    isFocused: () => false,
    webContents: {
      send: (channel: string, payload: unknown) =>
        void page().evaluate(([c, p]) => window.__desktopEmit?.(c, p), [channel, payload] as const),
    },
  } as unknown as BrowserWindow;
  const notifier = createNotifier({
    Notification: FakeNotification as unknown as { new (o: NotificationConstructorOptions): Notification; isSupported(): boolean },
    getWindow: () => win,
    showWindow: () => win,
  });
  const handleIpc = createIpcHandler({
    isOurWindow: (sender) => sender === win,
    allowedOrigins: [new URL(app.url).origin],
    keychain,
    imageCache,
    saveFile: (name, bytes) =>
      saveFile(
        { defaultDir: tmp, showSaveDialog: async (o) => ({ canceled: false, filePath: path.join(tmp, path.basename(o.defaultPath!)) }) },
        name,
        bytes,
      ),
    openExternal: async () => {},
    notify: (request) => notifier.show(request),
    notificationsSupported: () => true,
    onUnreadCounts: (counts) => tray.setCounts(counts),
    log: (message) => refusals.push(message),
  });
  return {
    keychain,
    store,
    imageCache,
    tray,
    badge: () => badge,
    refusals,
    handleIpc: (channel, url, payload) => handleIpc(channel, { sender: win, senderFrame: { url, parent: null } }, payload),
    version: { current: '0.1.0' },
  };
}

/** The preload's bridge in the page, over the binding; bytes cross as base64 (as they would as Uint8Array over IPC). */
function installBridge(context: BrowserContext, desktop: Desktop) {
  const decode = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(decode);
    if (value && typeof value === 'object') {
      if ('__bytes' in value) return new Uint8Array(Buffer.from(String((value as { __bytes: string }).__bytes), 'base64'));
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
    }
    return value;
  };
  const encode = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return { __bytes: Buffer.from(value).toString('base64') };
    if (Array.isArray(value)) return value.map(encode);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
    return value;
  };
  return Promise.all([
    context.exposeBinding('__desktopInvoke', async (source, channel: string, payload: unknown) =>
      encode(await desktop.handleIpc(channel, source.frame.url(), decode(payload))),
    ),
    context.addInitScript(() => {
      const toB64 = (bytes: Uint8Array) => {
        let s = '';
        for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(s);
      };
      const fromB64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const map = (value: unknown, leaf: (v: unknown) => unknown | undefined): unknown => {
        const mapped = leaf(value);
        if (mapped !== undefined) return mapped;
        if (Array.isArray(value)) return value.map((v) => map(v, leaf));
        if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v, leaf)]));
        return value;
      };
      const listeners = new Map<string, Set<(payload: unknown) => void>>();
      const w = window as unknown as {
        __desktopInvoke(channel: string, payload: unknown): Promise<unknown>;
        __desktopEmit(channel: string, payload: unknown): void;
        giftlinkDesktopIpc: unknown;
      };
      w.__desktopEmit = (channel, payload) => listeners.get(channel)?.forEach((l) => l(payload));
      w.giftlinkDesktopIpc = {
        invoke: async (channel: string, payload?: unknown) => {
          const answer = await w.__desktopInvoke(
            channel,
            map(payload, (v) => (v instanceof Uint8Array ? { __bytes: toB64(v) } : undefined)),
          );
          return map(answer, (v) =>
            v && typeof v === 'object' && '__bytes' in v ? fromB64(String((v as { __bytes: string }).__bytes)) : undefined,
          );
        },
        on: (channel: string, listener: (payload: unknown) => void) => {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(listener);
          return () => listeners.get(channel)?.delete(listener);
        },
      };
    }),
  ]);
}

/** What the desktop app loads from its bundle (app://giftlink) rather than from the API. */
const APP_FILES = new Set(['document', 'script', 'stylesheet', 'font', 'manifest']);

/** Main's webRequest header injection, played by page.route with the shell's own header function. */
async function injectApiHeaders(context: BrowserContext, desktop: Desktop) {
  const origin = apiOriginOf(app.url, false);
  await context.route(`${app.url}/**`, async (route) => {
    const request = route.request();
    // The app's own files come from app://giftlink in the desktop app, not from the API: leave them be here.
    if (APP_FILES.has(request.resourceType()) || /^\/(assets|onboarding)\/|^\/favicon/.test(new URL(request.url()).pathname)) {
      await route.continue();
      return;
    }
    const token = await desktop.keychain.loadToken();
    await route.continue({ headers: withApiHeaders(request.url(), request.headers(), origin, token, desktop.version.current) });
  });
}

declare global {
  interface Window {
    __desktopEmit?: (channel: string, payload: unknown) => void;
  }
}

describe('the desktop app', () => {
  it('keeps the token in the keychain, caches images in SQLite, counts unread in the tray, notifies, saves natively, and asks to update', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    let page!: Page;
    const desktop = mainProcess(() => page);
    await installBridge(context, desktop);
    await injectApiHeaders(context, desktop);
    page = await context.newPage();

    // Log in: the token goes to the keychain (encrypted in the store), nowhere in the page.
    await logIn(page, app, ana);
    const token = await desktop.keychain.loadToken();
    expect(token).toMatch(/\S{20,}/);
    expect(desktop.keychain.backend()).toBe('safeStorage');
    const stored = String(desktop.store.get(STORE_KEY));
    expect(stored).not.toContain(token!);
    expect(Buffer.from(stored, 'base64').toString('utf8')).not.toContain(token!);
    expect(
      await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie),
    ).not.toContain(token!);
    // No cookie holds a session. (This story's pages come from the API's origin, which marks a page
    // opened without a session as a visitor's, giftlink_visitor=1; the shell's own pages come from
    // no server, and the desktop app never reads that mark.)
    expect((await context.cookies()).map((c) => c.name).filter((name) => name !== VISITOR_COOKIE)).toEqual([]);
    // Her wishlist pictures land in the SQLite image cache, bytes and all.
    await expect.poll(async () => (await desktop.imageCache.get('wishlistImages', 'ana')).length, { timeout: 10_000 }).toBe(2);
    for (const image of await desktop.imageCache.get('wishlistImages', 'ana')) expect(image.bytes.byteLength).toBeGreaterThan(500);

    // Signed in through the header main adds: after a reload the session still answers her.
    await page.reload();
    await page.getByRole('link', { name: /^Messages/ }).waitFor();

    // The tray shows the socket's unread counts: the gift's message and its notification.
    await expect.poll(() => FakeTray.last?.tooltip, { timeout: 10_000 }).toBe('Giftlink: 1 unread message, 1 notification');
    expect(desktop.badge()).toBe(2);

    // Away from the window, Bob writes in the anonymous thread: the tray counts it and a notification names no one.
    await page.evaluate(() => {
      document.hasFocus = () => false;
    });
    // Let the reloaded page's socket settle: a message that arrives while it is still (re)connecting
    // comes by the catch-up, which raises no notification by design.
    await page.waitForTimeout(2500);
    const conversations = await app.request<{ _id: string }[]>(bob, 'GET', `/conversations/${bob.userId}`);
    const conversationId = conversations.body[0]._id;
    const sent = await app.request(bob, 'POST', '/messages/send', { conversationId, text: 'Did the gift arrive?' });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    await expect.poll(() => FakeTray.last?.tooltip, { timeout: 10_000 }).toBe('Giftlink: 2 unread messages, 1 notification');
    expect(desktop.badge()).toBe(3);
    await expect.poll(() => FakeNotification.shown.length, { timeout: 10_000 }).toBe(1);
    const [notification] = FakeNotification.shown;
    // The one rule's words (alert-texts.ts), the same whoever wrote: no name at all.
    expect(notification.options).toMatchObject({ title: alertText('message').subject, body: 'Did the gift arrive?' });
    expect(JSON.stringify(notification.options)).not.toContain(bob.username);

    // Clicking it opens the thread.
    notification.click();
    await page.waitForURL(`${app.url}/messages/${conversationId}`);
    await page.getByText('Did the gift arrive?').waitFor();

    // Download on a share image goes through the native save: the bytes are written where the dialog said.
    await page.goto(`${app.url}/link/ana`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'How to Share the Link' });
    await modal.getByRole('img', { name: /Your share image/ }).waitFor();
    await modal.getByRole('button', { name: 'Download' }).click();
    const saved = () => fs.readdirSync(tmp).filter((f) => f.endsWith('.png'));
    await expect.poll(saved, { timeout: 10_000 }).toHaveLength(1);
    expect(saved()[0]).toMatch(/^giftlink-link-ana-.+\.png$/);
    // The file shows as soon as the save opens it: wait for its bytes, not only its name.
    await expect
      .poll(() => fs.readFileSync(path.join(tmp, saved()[0])).subarray(0, 8).equals(PNG_SIGNATURE), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(async () => (await desktop.imageCache.get('shareImages', 'ana')).length).toBe(1);
    await page.keyboard.press('Escape');

    // Logout: the keychain forgets the token and the image cache is emptied.
    await page.goto(`${app.url}/profile/ana/settings`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${app.url}/login`);
    await expect.poll(() => desktop.keychain.loadToken()).toBeNull();
    expect(desktop.store.has(STORE_KEY)).toBe(false);
    expect(await desktop.imageCache.get('wishlistImages', 'ana')).toEqual([]);
    await expect.poll(() => FakeTray.last?.tooltip).toBe('Giftlink');

    // An installed app older than the API supports: 'Please update Giftlink' with the download link.
    desktop.version.current = '0.0.9';
    await page.goto(`${app.url}/`);
    const banner = page.getByRole('alert').filter({ hasText: 'Please update Giftlink to keep using it.' });
    await banner.waitFor();
    expect(await banner.getByRole('link', { name: 'Download the new version' }).getAttribute('href')).toBe(app.url);
    // The page itself has loaded under the banner (pages load on demand), so its heading is there for the screenshot and axe.
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await screenshots(page, 'desktop-upgrade');
    expect(desktop.refusals).toEqual([]);
    await context.close();
    desktop.imageCache.close();
  });
});
