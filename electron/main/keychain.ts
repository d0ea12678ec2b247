// The session token, kept by the main process in the OS keychain. keytar (service 'Giftlink',
// account 'session') where it loads and works; otherwise Electron's safeStorage encrypts it into
// the app's electron-store file; when neither is available (no OS secret store at all), the
// token lives in memory only and the user logs in again at the next launch. Never plaintext on
// disk: safeStorage's Linux 'basic_text' backend (a fixed, well-known key) counts as plaintext.
import type { SafeStorage } from 'electron';

export const KEYCHAIN_SERVICE = 'Giftlink';
export const KEYCHAIN_ACCOUNT = 'session';
/** The electron-store key of the safeStorage-encrypted token (base64 of the encrypted bytes). */
export const STORE_KEY = 'sessionToken';

/** The parts of keytar used here (the module, or a fake of it in tests). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export type SafeStorageLike = Pick<
  SafeStorage,
  'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'
>;

/** The parts of an electron-store (`conf`) instance used here. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export interface KeychainDeps {
  /** keytar when it loaded (see `loadKeytar`), null when not. */
  keytar: KeytarLike | null;
  safeStorage: SafeStorageLike;
  /** The app's electron-store; null leaves only keytar and memory. */
  store: KeyValueStore | null;
  /** `process.platform`: 'basic_text' is only looked for on Linux. */
  platform: NodeJS.Platform;
  log?: (message: string, error?: unknown) => void;
}

export type KeychainBackend = 'keytar' | 'safeStorage' | 'memory';

export interface Keychain {
  loadToken(): Promise<string | null>;
  saveToken(token: string): Promise<void>;
  clearToken(): Promise<void>;
  /** Where the token was last kept (for the log and the README's notes). */
  backend(): KeychainBackend;
}

/** keytar when its native module loads, else null (an optional dependency: installs never fail on it). */
export async function loadKeytar(): Promise<KeytarLike | null> {
  // A variable specifier: keytar may be absent, so neither TypeScript nor the bundler resolves it.
  const specifier = 'keytar';
  try {
    const mod = (await import(specifier)) as Partial<KeytarLike> & { default?: KeytarLike };
    const keytar = mod.default ?? mod;
    return typeof keytar.getPassword === 'function' ? (keytar as KeytarLike) : null;
  } catch {
    return null;
  }
}

export function createKeychain(deps: KeychainDeps): Keychain {
  const log = deps.log ?? ((message: string, error?: unknown) => console.warn(`[keychain] ${message}`, error ?? ''));
  let keytar = deps.keytar;
  let memory: string | null = null;
  let current: KeychainBackend = keytar ? 'keytar' : 'memory';

  /** keytar failed at run time (e.g. no D-Bus secret service): use the next store from now on. */
  function dropKeytar(error: unknown): void {
    log('keytar failed; falling back to safeStorage', error);
    keytar = null;
  }

  async function canEncrypt(): Promise<boolean> {
    if (!deps.store) return false;
    try {
      if (!(await deps.safeStorage.isAsyncEncryptionAvailable())) return false;
      if (deps.platform === 'linux' && deps.safeStorage.getSelectedStorageBackend() === 'basic_text') return false;
      return true;
    } catch (error) {
      log('safeStorage is unavailable', error);
      return false;
    }
  }

  function forgetStored(): void {
    try {
      deps.store?.delete(STORE_KEY);
    } catch (error) {
      log('could not delete the stored token', error);
    }
  }

  return {
    backend: () => current,

    async loadToken() {
      if (keytar) {
        try {
          const token = await keytar.getPassword(KEYCHAIN_SERVICE, KEYCHAIN_ACCOUNT);
          current = 'keytar';
          if (token) return token;
        } catch (error) {
          dropKeytar(error);
        }
      }
      const stored = deps.store?.get(STORE_KEY);
      if (typeof stored === 'string' && (await canEncrypt())) {
        try {
          const { result } = await deps.safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
          current = 'safeStorage';
          return result || null;
        } catch (error) {
          // Encrypted under another key (a new OS profile): unreadable, so forget it.
          log('could not decrypt the stored token', error);
          forgetStored();
        }
      }
      return memory;
    },

    async saveToken(token) {
      memory = null;
      if (keytar) {
        try {
          await keytar.setPassword(KEYCHAIN_SERVICE, KEYCHAIN_ACCOUNT, token);
          current = 'keytar';
          forgetStored(); // one copy only
          return;
        } catch (error) {
          dropKeytar(error);
        }
      }
      if (await canEncrypt()) {
        try {
          const encrypted = await deps.safeStorage.encryptStringAsync(token);
          deps.store?.set(STORE_KEY, Buffer.from(encrypted).toString('base64'));
          current = 'safeStorage';
          return;
        } catch (error) {
          log('could not encrypt the token', error);
        }
      }
      current = 'memory';
      memory = token;
    },

    async clearToken() {
      memory = null;
      if (keytar) {
        try {
          await keytar.deletePassword(KEYCHAIN_SERVICE, KEYCHAIN_ACCOUNT);
        } catch (error) {
          dropKeytar(error);
        }
      }
      forgetStored();
    },
  };
}
