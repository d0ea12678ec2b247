// The main process's side of the desktop IPC contract (`electron/shared/channels.ts`). Every call
// is checked before anything runs: the sender must be our window's web contents, the calling frame
// its top frame on an allowed origin (app://giftlink; the dev server in development), and the
// payload must parse with the channel's schema. Anything else is refused (the invoke rejects) and
// logged without its payload (a payload may hold the session token).
//
// `createIpcHandler(deps)` returns the one function every channel goes through, so tests and the
// browser test can call the real handlers without Electron; `registerIpcHandlers` wires it to
// `ipcMain.handle`.
import type { IpcMain } from 'electron';
import { APP_ORIGIN, INVOKE_CHANNELS, invokeContract } from '../shared/channels.js';
import type { Answer, ImageStore, InvokeChannel, IpcImage, NotifyRequest, ParsedPayload, UnreadCounts } from '../shared/channels.js';
import { isAllowedExternal } from './security.js';

/** What of an IPC event is checked (a real `IpcMainInvokeEvent` fits). */
export interface IpcSenderEvent {
  readonly sender: object;
  readonly senderFrame: { readonly url: string; readonly parent: object | null } | null;
}

export interface IpcDeps {
  /** True only for our window's web contents (`(wc) => wc === win.webContents`). */
  isOurWindow(sender: object): boolean;
  /** Origins allowed to call; default [APP_ORIGIN]. Add the dev server's origin in development only. */
  allowedOrigins?: readonly string[];
  keychain: {
    loadToken(): Promise<string | null>;
    saveToken(token: string): Promise<void>;
    clearToken(): Promise<void>;
  };
  imageCache: {
    get(store: ImageStore, username: string): Promise<IpcImage[]>;
    put(store: ImageStore, username: string, images: IpcImage[]): Promise<void>;
    clear(): Promise<void>;
  };
  /** Native save (`saveFile` of save.ts bound to the dialog); `saved: false` when cancelled. */
  saveFile(name: string, bytes: Uint8Array): Promise<{ saved: boolean }>;
  /** `shell.openExternal`; only http(s) URLs reach it. */
  openExternal(url: string): Promise<void>;
  /** Shows a native notification (the shell's notifier); a click sends notification-click/navigate. */
  notify(request: NotifyRequest): unknown;
  /** `Notification.isSupported()`. */
  notificationsSupported(): boolean;
  /** Tray tooltip/menu and the badge count. */
  onUnreadCounts(counts: UnreadCounts): void;
  /** The token changed (login: the token; logout: null), e.g. for the API request headers. */
  onTokenChange?(token: string | null): void;
  log?(message: string, details: Record<string, unknown>): void;
}

/** Every channel's call: (channel, event, payload) → the handler's answer; throws when refused. */
export type IpcHandler = (channel: string, event: IpcSenderEvent, payload?: unknown) => Promise<unknown>;

/** The IPC call was refused (unknown channel, wrong sender, bad payload). */
export class IpcRefused extends Error {
  constructor(channel: string) {
    super(`Refused: ${channel.slice(0, 64)}`);
    this.name = 'IpcRefused';
  }
}

/** The origin of a URL, also for custom schemes (`new URL('app://giftlink/x').origin` is 'null'). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.origin !== 'null') return u.origin;
    return u.host ? `${u.protocol}//${u.host}` : null;
  } catch {
    return null;
  }
}

/** Why the sender is not ours, or null when it is. */
export function senderProblem(event: IpcSenderEvent, deps: Pick<IpcDeps, 'isOurWindow' | 'allowedOrigins'>): string | null {
  if (!deps.isOurWindow(event.sender)) return 'not our window';
  const frame = event.senderFrame;
  if (!frame) return 'no sender frame';
  if (frame.parent) return 'not the top frame';
  const origin = originOf(frame.url);
  if (!origin || !(deps.allowedOrigins ?? [APP_ORIGIN]).includes(origin)) return `origin ${origin ?? 'invalid'}`;
  return null;
}

type Handlers = { [C in InvokeChannel]: (payload: ParsedPayload<C>) => Promise<Answer<C>> };

function handlers(deps: IpcDeps, log: NonNullable<IpcDeps['log']>): Handlers {
  return {
    'token:get': async () => (await deps.keychain.loadToken()) !== null,
    'token:set': async (token) => {
      if (token === null) {
        const [cleared, emptied] = await Promise.allSettled([deps.keychain.clearToken(), deps.imageCache.clear()]);
        deps.onTokenChange?.(null);
        if (emptied.status === 'rejected') log('image cache not cleared at logout', { error: String(emptied.reason) });
        if (cleared.status === 'rejected') throw cleared.reason;
        return undefined;
      }
      await deps.keychain.saveToken(token);
      deps.onTokenChange?.(token);
      return undefined;
    },
    'images:get': ({ store, username }) => deps.imageCache.get(store, username),
    'images:put': async ({ store, username, images }) => {
      await deps.imageCache.put(store, username, images);
      return undefined;
    },
    'images:clear': async () => {
      await deps.imageCache.clear();
      return undefined;
    },
    'save-file': ({ name, bytes }) => deps.saveFile(name, bytes),
    'open-url': async ({ url }) => {
      if (!isAllowedExternal(url)) throw new Error('Only http(s) links can be opened.');
      await deps.openExternal(url);
      return undefined;
    },
    notify: async (request) => {
      deps.notify(request);
      return undefined;
    },
    'notifications:permission': async () => (deps.notificationsSupported() ? 'granted' : 'unsupported'),
    'unread-counts': async (counts) => {
      deps.onUnreadCounts(counts);
      return undefined;
    },
  };
}

function isInvokeChannel(channel: string): channel is InvokeChannel {
  return (INVOKE_CHANNELS as readonly string[]).includes(channel);
}

/** The checked entry point of every channel (what `ipcMain.handle` calls, and tests call directly). */
export function createIpcHandler(deps: IpcDeps): IpcHandler {
  const log = deps.log ?? ((message, details) => console.warn(`[ipc] ${message}`, details));
  const table = handlers(deps, log);

  async function run<C extends InvokeChannel>(channel: C, payload: unknown): Promise<Answer<C>> {
    const parsed = invokeContract[channel].payload.safeParse(payload);
    if (!parsed.success) {
      log('refused: bad payload', { channel, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
      throw new IpcRefused(channel);
    }
    const handler = table[channel] as (p: unknown) => Promise<Answer<C>>;
    return handler(parsed.data);
  }

  return async (channel, event, payload) => {
    if (!isInvokeChannel(channel)) {
      log('refused: unknown channel', { channel: String(channel).slice(0, 64) });
      throw new IpcRefused(String(channel));
    }
    const problem = senderProblem(event, deps);
    if (problem) {
      log('refused: sender', { channel, problem });
      throw new IpcRefused(channel);
    }
    return run(channel, payload);
  };
}

/** Registers every channel on `ipcMain`; returns the handler and a function that removes them. */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  deps: IpcDeps,
): { handleIpc: IpcHandler; dispose(): void } {
  const handleIpc = createIpcHandler(deps);
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, (event, payload: unknown) => handleIpc(channel, event, payload));
  }
  return {
    handleIpc,
    dispose() {
      for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel);
    },
  };
}
