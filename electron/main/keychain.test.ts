import Conf from 'conf';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createKeychain,
  KEYCHAIN_ACCOUNT,
  KEYCHAIN_SERVICE,
  loadKeytar,
  STORE_KEY,
  type KeytarLike,
  type SafeStorageLike,
} from './keychain.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.session-token-of-ana.signature';

/** A fake of the keytar module: an in-memory OS keychain. */
function fakeKeytar(opts: { failing?: boolean } = {}) {
  const entries = new Map<string, string>();
  const key = (service: string, account: string) => `${service}/${account}`;
  const fail = () => {
    if (opts.failing) throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
  };
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      fail();
      return entries.get(key(service, account)) ?? null;
    },
    async setPassword(service, account, password) {
      fail();
      entries.set(key(service, account), password);
    },
    async deletePassword(service, account) {
      fail();
      return entries.delete(key(service, account));
    },
  };
  return { keytar, entries };
}

/** A fake of Electron's safeStorage: "encrypts" by reversing the bytes behind a prefix. */
function fakeSafeStorage(opts: { available?: boolean; backend?: ReturnType<SafeStorageLike['getSelectedStorageBackend']> } = {}) {
  const safeStorage: SafeStorageLike = {
    async isAsyncEncryptionAvailable() {
      return opts.available ?? true;
    },
    async encryptStringAsync(plainText) {
      return Buffer.concat([Buffer.from('v10'), Buffer.from(plainText).reverse()]);
    },
    async decryptStringAsync(encrypted) {
      if (!encrypted.subarray(0, 3).equals(Buffer.from('v10'))) throw new Error('bad ciphertext');
      return { shouldReEncrypt: false, result: Buffer.from(encrypted.subarray(3)).reverse().toString() };
    },
    getSelectedStorageBackend() {
      return opts.backend ?? 'gnome_libsecret';
    },
  };
  return safeStorage;
}

describe('session token in the OS keychain', () => {
  let dir: string;
  let store: Conf<Record<string, unknown>>;
  const storeFile = () => readFileSync(path.join(dir, 'config.json'), 'utf8');
  const logs: string[] = [];
  const log = (message: string) => logs.push(message);

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'giftlink-keychain-'));
    // electron-store is Conf with Electron's userData as cwd: the real file-backed store.
    store = new Conf({ cwd: dir });
    logs.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the token in keytar (service Giftlink, account session) and nothing in the store', async () => {
    const { keytar, entries } = fakeKeytar();
    const keychain = createKeychain({ keytar, safeStorage: fakeSafeStorage(), store, platform: 'darwin', log });
    expect(await keychain.loadToken()).toBeNull();
    await keychain.saveToken(TOKEN);
    expect(entries.get(`${KEYCHAIN_SERVICE}/${KEYCHAIN_ACCOUNT}`)).toBe(TOKEN);
    expect(keychain.backend()).toBe('keytar');
    expect(store.get(STORE_KEY)).toBeUndefined();
    // A new launch reads it back.
    expect(await createKeychain({ keytar, safeStorage: fakeSafeStorage(), store, platform: 'darwin' }).loadToken()).toBe(TOKEN);
    await keychain.clearToken();
    expect(entries.size).toBe(0);
    expect(await keychain.loadToken()).toBeNull();
  });

  it('without keytar, encrypts with safeStorage into the store file, never in plaintext', async () => {
    const keychain = createKeychain({ keytar: null, safeStorage: fakeSafeStorage(), store, platform: 'linux', log });
    await keychain.saveToken(TOKEN);
    expect(keychain.backend()).toBe('safeStorage');
    const onDisk = storeFile();
    expect(onDisk).toContain(STORE_KEY);
    expect(onDisk).not.toContain(TOKEN);
    expect(onDisk).not.toContain('session-token-of-ana');
    // A new launch (new store instance on the same file) decrypts it.
    const relaunched = createKeychain({ keytar: null, safeStorage: fakeSafeStorage(), store: new Conf({ cwd: dir }), platform: 'linux' });
    expect(await relaunched.loadToken()).toBe(TOKEN);
    await relaunched.clearToken();
    expect(storeFile()).not.toContain(STORE_KEY);
    expect(await keychain.loadToken()).toBeNull();
  });

  it('falls back to safeStorage when keytar loads but fails (no secret service)', async () => {
    const { keytar } = fakeKeytar({ failing: true });
    const keychain = createKeychain({ keytar, safeStorage: fakeSafeStorage(), store, platform: 'linux', log });
    await keychain.saveToken(TOKEN);
    expect(keychain.backend()).toBe('safeStorage');
    expect(logs.some((l) => l.includes('keytar failed'))).toBe(true);
    expect(storeFile()).not.toContain(TOKEN);
    expect(await keychain.loadToken()).toBe(TOKEN);
  });

  it("keeps the token in memory only when safeStorage is unavailable or Linux's basic_text", async () => {
    for (const safeStorage of [fakeSafeStorage({ available: false }), fakeSafeStorage({ backend: 'basic_text' })]) {
      const keychain = createKeychain({ keytar: null, safeStorage, store, platform: 'linux', log });
      await keychain.saveToken(TOKEN);
      expect(keychain.backend()).toBe('memory');
      expect(await keychain.loadToken()).toBe(TOKEN);
      expect(store.get(STORE_KEY)).toBeUndefined();
      await keychain.clearToken();
      expect(await keychain.loadToken()).toBeNull();
    }
  });

  it('forgets a stored token that no longer decrypts', async () => {
    store.set(STORE_KEY, Buffer.from('garbage').toString('base64'));
    const keychain = createKeychain({ keytar: null, safeStorage: fakeSafeStorage(), store, platform: 'win32', log });
    expect(await keychain.loadToken()).toBeNull();
    expect(store.get(STORE_KEY)).toBeUndefined();
  });

  it('keytar is optional: loadKeytar answers null or a usable module, never throws', async () => {
    const keytar = await loadKeytar();
    if (keytar) expect(typeof keytar.setPassword).toBe('function');
    else expect(keytar).toBeNull();
  });
});
