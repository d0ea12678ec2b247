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

export interface Notifications {
  show(title: string, body: string): Promise<void>;
}

/** A local cache of downloaded images (wishlist and share images), keyed by URL or name. */
export interface ImageCache {
  get(key: string): Promise<Blob | null>;
  put(key: string, image: Blob): Promise<void>;
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
}

declare global {
  interface Window {
    /** Exposed by the Electron preload through contextBridge. */
    giftlinkDesktop?: Platform;
  }
}
