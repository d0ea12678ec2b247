import { indexedDbImageCache } from './imageDb';
import type { Platform } from './types';

/** Only http(s) URLs may leave the app. */
export function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url, window.location.href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const webPlatform: Platform = {
  kind: 'web',

  // The website authenticates with the httpOnly session cookie: no token is kept in the page.
  token: {
    async get() {
      return null;
    },
    async set() {},
  },

  notifications: {
    async show(title, body, options = {}) {
      // Permission is asked for from a user action elsewhere; never prompt from here.
      if (typeof Notification === 'undefined') return;
      if (Notification.permission !== 'granted') return;
      try {
        const notification = new Notification(title, { body, tag: options.tag, icon: '/favicon.svg' });
        notification.onclick = () => {
          window.focus();
          notification.close();
          options.onClick?.();
        };
      } catch {
        // Some mobile browsers only show notifications from a service worker.
      }
    },
    async permission() {
      return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
    },
    requestPermission() {
      if (typeof Notification === 'undefined') return Promise.resolve('unsupported' as const);
      // Called straight from the click handler, so the browser sees the user's gesture.
      return Notification.requestPermission();
    },
  },

  // IndexedDB 'ImageDB' v2 (stores shareImages and wishlistImages, keyed by username).
  imageCache: indexedDbImageCache,

  async saveFile(name, data) {
    const url = URL.createObjectURL(data);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },

  async openUrl(url) {
    if (!isHttpUrl(url)) throw new Error('Only http(s) links can be opened.');
    window.open(url, '_blank', 'noopener,noreferrer');
  },
};
