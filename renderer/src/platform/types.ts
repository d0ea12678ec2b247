/**
 * The seam between the website and the desktop app. Pages and atoms use only this contract;
 * `web.ts` implements it for the browser and the Electron preload exposes the desktop one as
 * `window.giftlinkDesktop`.
 */

/** Where the session token lives. The website keeps it in an httpOnly cookie instead. */
export interface TokenStore {
  get(): Promise<string | null>;
  set(token: string | null): Promise<void>;
}

/** Whether system notifications may be shown; 'unsupported' where there are none. */
export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

export interface NotificationOptions {
  /** Notifications with the same tag replace each other (one per message, across tabs). */
  tag?: string;
  /** Called when the user clicks the notification (the app window is focused first). */
  onClick?: () => void;
}

export interface Notifications {
  /** Shows a system notification when permitted; silently does nothing otherwise. */
  show(title: string, body: string, options?: NotificationOptions): Promise<void>;
  permission(): Promise<NotificationPermissionState>;
  /** Asks the user; call it from a user action (a click), never on load. */
  requestPermission(): Promise<NotificationPermissionState>;
}

/** The image stores of the local image database (PRODUCT.md: 'ImageDB' version 2). */
export type ImageStoreName = 'shareImages' | 'wishlistImages';

/** One saved image: the address it was downloaded from and its bytes. */
export interface StoredImage {
  url: string;
  blob: Blob;
}

/**
 * The local image cache: per store, one entry per username holding that user's images. The
 * website keeps it in IndexedDB; the desktop shell may keep it in its own database. Every method
 * rejects when local storage fails (blocked, full, private mode), so callers can tell the user.
 */
export interface ImageCache {
  /** The images saved for `username` in `store`; an empty list when there are none. */
  get(store: ImageStoreName, username: string): Promise<StoredImage[]>;
  /** Replaces the images saved for `username` in `store`. */
  put(store: ImageStoreName, username: string, images: StoredImage[]): Promise<void>;
  /** Forgets every saved image, in every store (logout). */
  clear(): Promise<void>;
}

export interface Platform {
  readonly kind: 'web' | 'desktop';
  readonly token: TokenStore;
  readonly notifications: Notifications;
  readonly imageCache: ImageCache;
  /** Offer a file to the user (download on the web, a save dialog on the desktop). */
  saveFile(name: string, data: Blob): Promise<void>;
  /** Open an http(s) URL outside the app. Other schemes are refused. */
  openUrl(url: string): Promise<void>;
  /** Only in the desktop app. */
  readonly desktop?: DesktopExtras;
}

/** What only the desktop app offers beyond the shared contract. */
export interface DesktopExtras {
  /** Whether a session token is kept in the OS keychain (the token itself never reaches the page). */
  hasSession(): Promise<boolean>;
  /** The live unread counts, for the tray tooltip and menu and the app badge. */
  reportUnread(counts: { messages: number; notifications: number }): Promise<void>;
  /** The app asks to open an in-app route (tray menu, deep link, notification); returns an unsubscribe. */
  onNavigate(listener: (route: string) => void): () => void;
}

/**
 * The Electron preload's bridge (`window.giftlinkDesktopIpc`): only the named channels of
 * `electron/shared/channels.ts`, bytes as Uint8Array. Blobs do not survive contextBridge, so the
 * desktop `Platform` is built from this bridge in the page (`makeDesktopPlatform`).
 */
export interface DesktopIpcBridge {
  invoke(channel: string, payload?: unknown): Promise<unknown>;
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    /** A ready desktop platform (tests may inject one). */
    giftlinkDesktop?: Platform;
    /** Exposed by the Electron preload through contextBridge. */
    giftlinkDesktopIpc?: DesktopIpcBridge;
  }
}
