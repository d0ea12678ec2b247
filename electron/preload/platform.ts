// The desktop implementation of the renderer's `Platform` contract, on the IPC channels of
// `electron/shared/channels.ts`. Pure (no Electron, no Node): it runs in the page, built from the
// preload's bridge (`window.giftlinkDesktopIpc`), because Blobs do not cross contextBridge; here
// they become Uint8Array before crossing IPC, and bytes become Blobs again on the way back.
import type {
  DesktopExtras,
  DesktopIpcBridge,
  NotificationPermissionState,
  Platform,
  StoredImage,
} from '../../renderer/src/platform/types';
import type { Invoke, IpcImage, On } from '../shared/channels';

/** How many notification click handlers are remembered (oldest forgotten first). */
const MAX_CLICK_HANDLERS = 200;

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isRoute(route: unknown): route is string {
  return typeof route === 'string' && route.startsWith('/') && !route.startsWith('//');
}

function count(n: number): number {
  return Number.isFinite(n) ? Math.min(1_000_000, Math.max(0, Math.floor(n))) : 0;
}

async function toIpcImage({ url, blob }: StoredImage): Promise<IpcImage> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return blob.type ? { url, bytes, type: blob.type.slice(0, 100) } : { url, bytes };
}

function toStoredImage({ url, bytes, type }: IpcImage): StoredImage {
  return { url, blob: new Blob([bytes as Uint8Array<ArrayBuffer>], type ? { type } : {}) };
}

export function makeDesktopPlatform(invoke: Invoke, on: On): Platform & { readonly desktop: DesktopExtras } {
  // A notification's onClick stays in the page; main sends its tag back when it is clicked.
  const clickHandlers = new Map<string, () => void>();
  let nextTag = 0;
  on('notification-click', ({ tag }) => {
    const handler = clickHandlers.get(tag);
    clickHandlers.delete(tag);
    handler?.();
  });

  const permission = (): Promise<NotificationPermissionState> => invoke('notifications:permission', undefined);

  const platform = {
    kind: 'desktop',

    // The token stays in the main process (OS keychain) and is added to API requests there:
    // the page never reads it back. `set` hands a fresh token over at login, null at logout.
    token: {
      async get() {
        return null;
      },
      async set(token) {
        await invoke('token:set', token ? token : null);
      },
    },

    notifications: {
      async show(title, body, options = {}) {
        let tag = options.tag?.slice(0, 200);
        if (options.onClick) {
          tag ??= `click:${++nextTag}`;
          clickHandlers.delete(tag);
          clickHandlers.set(tag, options.onClick);
          while (clickHandlers.size > MAX_CLICK_HANDLERS) clickHandlers.delete(clickHandlers.keys().next().value as string);
        }
        await invoke('notify', { title: title.slice(0, 200) || 'Giftlink', body: body.slice(0, 1000), ...(tag ? { tag } : {}) });
      },
      permission,
      // Desktop notifications need no prompt: the OS settings decide.
      requestPermission: permission,
    },

    imageCache: {
      async get(store, username) {
        const images = await invoke('images:get', { store, username });
        return images.map(toStoredImage);
      },
      async put(store, username, images) {
        await invoke('images:put', { store, username, images: await Promise.all(images.map(toIpcImage)) });
      },
      async clear() {
        await invoke('images:clear', undefined);
      },
    },

    async saveFile(name, data) {
      const bytes = new Uint8Array(await data.arrayBuffer());
      await invoke('save-file', { name: name.slice(0, 255) || 'giftlink', bytes });
    },

    async openUrl(url) {
      if (!isHttpUrl(url)) throw new Error('Only http(s) links can be opened.');
      await invoke('open-url', { url });
    },

    desktop: {
      hasSession: () => invoke('token:get', undefined),
      async reportUnread({ messages, notifications }) {
        await invoke('unread-counts', { messages: count(messages), notifications: count(notifications) });
      },
      onNavigate(listener) {
        return on('navigate', ({ route }) => {
          if (isRoute(route)) listener(route);
        });
      },
    },
  } satisfies Platform & { readonly desktop: DesktopExtras };
  return platform;
}

/** The desktop platform on the preload's bridge (`window.giftlinkDesktopIpc`). */
export function desktopPlatformFrom(bridge: DesktopIpcBridge): Platform {
  return makeDesktopPlatform(bridge.invoke as Invoke, bridge.on as On);
}
