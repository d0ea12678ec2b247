import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Platform } from '../../renderer/src/platform/types';
import { openImageCache, type DesktopImageCache } from '../main/image-cache.js';
import { createIpcHandler, type IpcHandler } from '../main/ipc.js';
import { createKeychain, type KeytarLike, type SafeStorageLike } from '../main/keychain.js';
import { saveFile } from '../main/save.js';
import { APP_ORIGIN, type EventChannel, type Invoke, type NotifyRequest, type On } from '../shared/channels.js';
import { makeIpcBridge, type IpcRendererLike } from './bridge.js';
import { desktopPlatformFrom, makeDesktopPlatform } from './platform.js';

const noSafeStorage: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: async () => Buffer.alloc(0),
  decryptStringAsync: async () => ({ shouldReEncrypt: false, result: '' }),
  getSelectedStorageBackend: () => 'unknown',
};

/**
 * The desktop Platform wired to the REAL main-process handlers, the way Electron wires them:
 * invoke → handler with an event from our window on app://giftlink; main → page events through a
 * fake of ipcRenderer's listeners.
 */
describe('desktop platform (preload) over the real IPC handlers', () => {
  let dir: string;
  let cache: DesktopImageCache;
  let keychainEntries: Map<string, string>;
  let shown: NotifyRequest[];
  let handle: IpcHandler;
  let listeners: Map<string, Set<(event: unknown, payload: unknown) => void>>;
  let platform: ReturnType<typeof makeDesktopPlatform>;
  const emit = (channel: EventChannel, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'main' }, payload);
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'giftlink-preload-'));
    cache = openImageCache({ file: path.join(dir, 'images.sqlite') });
    keychainEntries = new Map();
    const keytar: KeytarLike = {
      getPassword: async (s, a) => keychainEntries.get(`${s}/${a}`) ?? null,
      setPassword: async (s, a, p) => void keychainEntries.set(`${s}/${a}`, p),
      deletePassword: async (s, a) => keychainEntries.delete(`${s}/${a}`),
    };
    shown = [];
    const win = {};
    handle = createIpcHandler({
      isOurWindow: (sender) => sender === win,
      keychain: createKeychain({ keytar, safeStorage: noSafeStorage, store: null, platform: 'linux' }),
      imageCache: cache,
      saveFile: (name, bytes) =>
        saveFile({ showSaveDialog: async (o) => ({ canceled: false, filePath: o.defaultPath ?? '' }), defaultDir: dir }, name, bytes),
      openExternal: async () => undefined,
      notify: (request) => shown.push(request),
      notificationsSupported: () => true,
      onUnreadCounts: () => undefined,
      log: () => undefined,
    });
    listeners = new Map();
    // A fake of ipcRenderer: invoke reaches the handler as Electron would deliver it.
    const ipcRenderer: IpcRendererLike = {
      invoke: (channel: string, ...args: unknown[]) =>
        handle(channel, { sender: win, senderFrame: { url: `${APP_ORIGIN}/`, parent: null } }, args[0]),
      on(channel: string, listener: (event: never, ...args: never[]) => void) {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener as (event: unknown, payload: unknown) => void);
        listeners.set(channel, set);
        return ipcRenderer as never;
      },
      removeListener(channel: string, listener: (...args: never[]) => void) {
        listeners.get(channel)?.delete(listener as (event: unknown, payload: unknown) => void);
        return ipcRenderer as never;
      },
    };
    const bridge = makeIpcBridge(ipcRenderer);
    platform = makeDesktopPlatform(bridge.invoke as Invoke, bridge.on as On);
  });
  afterEach(() => {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is the desktop Platform, and the page never reads the token back', async () => {
    const typed: Platform = platform;
    expect(typed.kind).toBe('desktop');
    await platform.token.set('tok-abc');
    expect(keychainEntries.get('Giftlink/session')).toBe('tok-abc');
    expect(await platform.token.get()).toBeNull();
    expect(await platform.desktop.hasSession()).toBe(true);
    await platform.token.set(null);
    expect(await platform.desktop.hasSession()).toBe(false);
  });

  it('turns Blobs into bytes for the SQLite cache and back into Blobs with their type', async () => {
    const blob = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 5, 6])], { type: 'image/png' });
    await platform.imageCache.put('wishlistImages', 'ana', [{ url: 'https://cdn.example/a.png', blob }]);
    const [image] = await platform.imageCache.get('wishlistImages', 'ana');
    expect(image.url).toBe('https://cdn.example/a.png');
    expect(image.blob.type).toBe('image/png');
    expect([...new Uint8Array(await image.blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 5, 6]);
    await platform.imageCache.clear();
    expect(await platform.imageCache.get('wishlistImages', 'ana')).toEqual([]);
  });

  it('saves a Blob through the native save handler', async () => {
    await platform.saveFile('giftlink-ana.png', new Blob([new Uint8Array([1, 2, 3])]));
    expect([...readFileSync(path.join(dir, 'giftlink-ana.png'))]).toEqual([1, 2, 3]);
  });

  it("runs a notification's onClick when main reports the click, once", async () => {
    let clicks = 0;
    await platform.notifications.show('New message from Ana', 'Hi!', { tag: 'message:m1', onClick: () => clicks++ });
    await platform.notifications.show('Giftlink', 'No click handler');
    expect(shown).toEqual([
      { title: 'New message from Ana', body: 'Hi!', tag: 'message:m1' },
      { title: 'Giftlink', body: 'No click handler' },
    ]);
    emit('notification-click', { tag: 'message:m1' });
    emit('notification-click', { tag: 'message:m1' });
    expect(clicks).toBe(1);
    expect(await platform.notifications.permission()).toBe('granted');
    expect(await platform.notifications.requestPermission()).toBe('granted');
  });

  it('delivers navigate events to the page until unsubscribed, in-app routes only', () => {
    const routes: string[] = [];
    const off = platform.desktop.onNavigate((route) => routes.push(route));
    emit('navigate', { route: '/messages/c1' });
    emit('navigate', { route: 'https://evil.example/' });
    off();
    emit('navigate', { route: '/notifications' });
    expect(routes).toEqual(['/messages/c1']);
  });

  it('refuses non-http(s) URLs before they leave the page, and reports clamped unread counts', async () => {
    await expect(platform.openUrl('file:///etc/passwd')).rejects.toThrow('Only http(s) links can be opened.');
    await expect(platform.desktop.reportUnread({ messages: 2.7, notifications: -4 })).resolves.toBeUndefined();
  });

  it('the bridge only carries the named channels, and no IPC event reaches the page', async () => {
    const sent: unknown[] = [];
    const fake: IpcRendererLike = {
      invoke: async (channel: string) => channel,
      on: (_c: string, listener: (event: never, ...args: never[]) => void) => {
        (listener as (event: unknown, payload: unknown) => void)({ sender: 'secret ipc event' }, { route: '/x' });
        return fake as never;
      },
      removeListener: () => fake as never,
    };
    const bridge = makeIpcBridge(fake);
    await expect(bridge.invoke('token:get')).resolves.toBe('token:get');
    await expect(bridge.invoke('evil:channel')).rejects.toThrow('Unknown channel');
    expect(() => bridge.on('token:set', () => undefined)).toThrow('Unknown channel');
    bridge.on('navigate', (...args: unknown[]) => sent.push(args));
    expect(sent).toEqual([[{ route: '/x' }]]);
    expect(desktopPlatformFrom(bridge).kind).toBe('desktop');
  });
});
