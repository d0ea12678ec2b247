import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ImageCache, ImageStoreName, StoredImage } from './types';

/** PRODUCT.md §3 and §9: the local database 'ImageDB', version 2, two stores keyed by username. */
export const IMAGE_DB_NAME = 'ImageDB';
export const IMAGE_DB_VERSION = 2;
export const IMAGE_STORES: readonly ImageStoreName[] = ['shareImages', 'wishlistImages'];

/** What each store holds under a username. */
export interface ImageRecord {
  username: string;
  images: StoredImage[];
}

interface ImageDbSchema extends DBSchema {
  shareImages: { key: string; value: ImageRecord };
  wishlistImages: { key: string; value: ImageRecord };
}

let opening: Promise<IDBPDatabase<ImageDbSchema>> | null = null;

function database(): Promise<IDBPDatabase<ImageDbSchema>> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= openDB<ImageDbSchema>(IMAGE_DB_NAME, IMAGE_DB_VERSION, {
    upgrade(db) {
      // Version 1 (or nothing) to 2: make sure both stores exist, keyed by username.
      for (const name of IMAGE_STORES) {
        if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, { keyPath: 'username' });
      }
    },
    blocking() {
      // Another tab wants a newer version: step aside so it can upgrade.
      void opening?.then((db) => db.close());
      opening = null;
    },
    terminated() {
      opening = null;
    },
  }).catch((err: unknown) => {
    opening = null; // try again next time (storage may come back)
    throw err;
  });
  return opening;
}

const key = (username: string) => username.toLowerCase();

/** The browser's image cache: IndexedDB through `idb`. */
export const indexedDbImageCache: ImageCache = {
  async get(store, username) {
    const db = await database();
    const record = await db.get(store, key(username));
    return record?.images ?? [];
  },

  async put(store, username, images) {
    const db = await database();
    await db.put(store, { username: key(username), images: images.map(({ url, blob }) => ({ url, blob })) });
  },

  async clear() {
    const db = await database();
    const tx = db.transaction([...IMAGE_STORES], 'readwrite');
    await Promise.all([...IMAGE_STORES.map((name) => tx.objectStore(name).clear()), tx.done]);
  },
};
