import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_ORIGIN, INVOKE_CHANNELS, type NotifyRequest, type UnreadCounts } from '../shared/channels.js';
import { openImageCache, type DesktopImageCache } from './image-cache.js';
import { createIpcHandler, originOf, registerIpcHandlers, type IpcDeps, type IpcHandler, type IpcSenderEvent } from './ipc.js';
import { createKeychain, type KeytarLike, type SafeStorageLike } from './keychain.js';
import { saveFile } from './save.js';

/** Fakes of the Electron objects an IPC event carries. */
const ourWindow = { id: 1 };
const otherWindow = { id: 2 };
const mainFrame = (url: string) => ({ url, parent: null });
const fromApp = (url = `${APP_ORIGIN}/messages`): IpcSenderEvent => ({ sender: ourWindow, senderFrame: mainFrame(url) });

/** A fake of safeStorage where the OS offers no encryption (keytar is the store in these tests). */
const noSafeStorage: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: async () => {
    throw new Error('unavailable');
  },
  decryptStringAsync: async () => {
    throw new Error('unavailable');
  },
  getSelectedStorageBackend: () => 'unknown',
};

function memoryKeytar(): KeytarLike & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getPassword: async (s, a) => entries.get(`${s}/${a}`) ?? null,
    setPassword: async (s, a, p) => void entries.set(`${s}/${a}`, p),
    deletePassword: async (s, a) => entries.delete(`${s}/${a}`),
  };
}

describe('desktop IPC handlers', () => {
  let dir: string;
  let cache: DesktopImageCache;
  let keytar: ReturnType<typeof memoryKeytar>;
  let handle: IpcHandler;
  let logs: Array<{ message: string; details: Record<string, unknown> }>;
  let shown: NotifyRequest[];
  let counts: UnreadCounts[];
  let opened: string[];
  let tokens: Array<string | null>;
  let savePath: string | null;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'giftlink-ipc-'));
    cache = openImageCache({ file: path.join(dir, 'images.sqlite') });
    keytar = memoryKeytar();
    logs = [];
    shown = [];
    counts = [];
    opened = [];
    tokens = [];
    savePath = path.join(dir, 'out.png');
    const deps: IpcDeps = {
      isOurWindow: (sender) => sender === ourWindow,
      keychain: createKeychain({ keytar, safeStorage: noSafeStorage, store: null, platform: 'darwin' }),
      imageCache: cache,
      saveFile: (name, bytes) =>
        saveFile({ showSaveDialog: async () => ({ canceled: !savePath, filePath: savePath ?? '' }), defaultDir: dir }, name, bytes),
      openExternal: async (url) => void opened.push(url),
      notify: (request) => shown.push(request),
      notificationsSupported: () => true,
      onUnreadCounts: (c) => counts.push(c),
      onTokenChange: (t) => tokens.push(t),
      log: (message, details) => logs.push({ message, details }),
    };
    handle = createIpcHandler(deps);
  });
  afterEach(() => {
    cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the token in the keychain and only ever answers whether there is one', async () => {
    expect(await handle('token:get', fromApp())).toBe(false);
    await handle('token:set', fromApp(), 'tok-123');
    expect(keytar.entries.get('Giftlink/session')).toBe('tok-123');
    expect(await handle('token:get', fromApp())).toBe(true);
    expect(tokens).toEqual(['tok-123']);
  });

  it('logout (token:set null) deletes the token and clears the image cache', async () => {
    await handle('token:set', fromApp(), 'tok-123');
    await handle('images:put', fromApp(), {
      store: 'wishlistImages',
      username: 'ana',
      images: [{ url: 'u', bytes: new Uint8Array([1, 2]) }],
    });
    await handle('token:set', fromApp(), null);
    expect(keytar.entries.size).toBe(0);
    expect(await handle('images:get', fromApp(), { store: 'wishlistImages', username: 'ana' })).toEqual([]);
    expect(tokens).toEqual(['tok-123', null]);
  });

  it('puts, gets and clears images as bytes', async () => {
    const images = [{ url: 'https://cdn.example/a.png', bytes: new Uint8Array([9, 8, 7]), type: 'image/png' }];
    await handle('images:put', fromApp(), { store: 'shareImages', username: 'ana', images });
    const got = (await handle('images:get', fromApp(), { store: 'shareImages', username: 'ana' })) as typeof images;
    expect(got.map((i) => ({ ...i, bytes: [...i.bytes] }))).toEqual([{ ...images[0], bytes: [9, 8, 7] }]);
    await handle('images:clear', fromApp());
    expect(await handle('images:get', fromApp(), { store: 'shareImages', username: 'ana' })).toEqual([]);
  });

  it('saves through the dialog, notifies, reports counts and opens http(s) links', async () => {
    expect(await handle('save-file', fromApp(), { name: 'giftlink-ana.png', bytes: new Uint8Array([1, 2, 3]) })).toEqual({ saved: true });
    expect([...readFileSync(savePath as string)]).toEqual([1, 2, 3]);
    savePath = null;
    expect(await handle('save-file', fromApp(), { name: 'x.png', bytes: new Uint8Array([1]) })).toEqual({ saved: false });

    await handle('notify', fromApp(), { title: 'You received a gift', body: 'Enjoy!', tag: 'message:1', route: '/messages/c1' });
    expect(shown).toEqual([{ title: 'You received a gift', body: 'Enjoy!', tag: 'message:1', route: '/messages/c1' }]);
    expect(await handle('notifications:permission', fromApp())).toBe('granted');

    await handle('unread-counts', fromApp(), { messages: 3, notifications: 1 });
    expect(counts).toEqual([{ messages: 3, notifications: 1 }]);

    await handle('open-url', fromApp(), { url: 'https://example.com/x' });
    expect(opened).toEqual(['https://example.com/x']);
  });

  it('refuses calls from another window, another origin, a subframe or no frame, and logs them', async () => {
    const refused: IpcSenderEvent[] = [
      { sender: otherWindow, senderFrame: mainFrame(`${APP_ORIGIN}/`) },
      { sender: ourWindow, senderFrame: mainFrame('https://evil.example/') },
      { sender: ourWindow, senderFrame: mainFrame('app://giftlink.evil/') },
      { sender: ourWindow, senderFrame: mainFrame('file:///home/ana/page.html') },
      { sender: ourWindow, senderFrame: { url: `${APP_ORIGIN}/`, parent: mainFrame(`${APP_ORIGIN}/`) } },
      { sender: ourWindow, senderFrame: null },
    ];
    for (const event of refused) {
      await expect(handle('token:set', event, 'stolen')).rejects.toThrow(/Refused/);
      await expect(handle('token:get', event)).rejects.toThrow(/Refused/);
    }
    expect(keytar.entries.size).toBe(0);
    expect(logs.filter((l) => l.message === 'refused: sender')).toHaveLength(refused.length * 2);
  });

  it('refuses bad payloads and unknown channels, logging without the payload', async () => {
    const bad: Array<[string, unknown]> = [
      ['token:set', 42],
      ['token:set', ''],
      ['token:get', { extra: true }],
      ['images:get', { store: 'otherStore', username: 'ana' }],
      ['images:put', { store: 'shareImages', username: 'ana', images: [{ url: 'u', bytes: [1, 2, 3] }] }],
      ['images:put', { store: 'shareImages', username: '', images: [] }],
      ['save-file', { name: 'x.png', bytes: 'AAAA' }],
      [
        'images:put',
        {
          store: 'shareImages',
          username: 'ana',
          images: Array.from({ length: 6 }, (_, i) => ({ url: `u${i}`, bytes: new Uint8Array(9 * 1024 * 1024) })),
        },
      ],
      ['images:get', { store: 'shareImages', username: 'ana', extra: 'field' }],
      ['open-url', { url: 'file:///etc/passwd' }],
      ['open-url', { url: 'javascript:alert(1)' }],
      ['notify', { title: '', body: 'x' }],
      ['notify', { title: 't', body: 'b', route: 'https://evil.example/' }],
      ['unread-counts', { messages: -1, notifications: 0 }],
      ['unread-counts', { messages: 1.5, notifications: 0 }],
      ['shell:exec', 'rm -rf /'],
    ];
    for (const [channel, payload] of bad) {
      await expect(handle(channel, fromApp(), payload), channel).rejects.toThrow(/Refused/);
    }
    expect(opened).toEqual([]);
    expect(shown).toEqual([]);
    expect(JSON.stringify(logs)).not.toContain('rm -rf');
  });

  it('registers every channel on ipcMain (a fake of it) and removes them', async () => {
    const handlers = new Map<string, (event: IpcSenderEvent, payload: unknown) => unknown>();
    const ipcMain = {
      handle: (channel: string, listener: (event: never, ...args: never[]) => unknown) => void handlers.set(channel, listener as never),
      removeHandler: (channel: string) => void handlers.delete(channel),
    };
    const { dispose } = registerIpcHandlers(ipcMain, {
      isOurWindow: (s) => s === ourWindow,
      keychain: createKeychain({ keytar, safeStorage: noSafeStorage, store: null, platform: 'darwin' }),
      imageCache: cache,
      saveFile: async () => ({ saved: false }),
      openExternal: async () => undefined,
      notify: () => undefined,
      notificationsSupported: () => false,
      onUnreadCounts: () => undefined,
      log: () => undefined,
    });
    expect([...handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(await handlers.get('notifications:permission')?.(fromApp(), undefined)).toBe('unsupported');
    await expect(
      Promise.resolve(handlers.get('token:get')?.({ sender: otherWindow, senderFrame: mainFrame(APP_ORIGIN) }, undefined)),
    ).rejects.toThrow();
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('reads origins of custom schemes (Node gives app: URLs an opaque origin)', () => {
    expect(originOf('app://giftlink/index.html')).toBe('app://giftlink');
    expect(originOf('http://localhost:5173/x')).toBe('http://localhost:5173');
    expect(originOf('not a url')).toBeNull();
  });
});
