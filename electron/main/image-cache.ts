// The desktop's local image cache: the `shareImages` and `wishlistImages` stores of the renderer's
// ImageCache contract, in one SQLite file (better-sqlite3, in the main process) under the app's
// userData folder. Entries are keyed by (store, username); a size cap evicts the least recently
// used entries. A database file that is corrupt, not a database, or locked is moved aside and
// recreated, and the next read or write rejects once with the spec's text so the page tells the
// user (PRODUCT.md: 'Could not save images locally. Wishlist images may not save properly.').
import Database from 'better-sqlite3';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_CACHE_ERROR } from '../../api/contract/texts.js';
import type { ImageStore, IpcImage } from '../shared/channels.js';

export type CacheStore = ImageStore;

/** Default size cap of the cached bytes (all stores together). */
export const DEFAULT_IMAGE_CACHE_BYTES = 200 * 1024 * 1024;
export const IMAGE_CACHE_FILE = 'image-cache.sqlite';

export interface ImageCacheOptions {
  /** The database file, e.g. join(app.getPath('userData'), IMAGE_CACHE_FILE). */
  file: string;
  /** Size cap in bytes of the cached images; least recently used entries go first. */
  maxBytes?: number;
  /** Called with the spec's text and the cause whenever the database had to be recreated. */
  onError?: (message: string, cause: unknown) => void;
  /** The clock behind `last_used` (tests pass their own). */
  now?: () => number;
  /** How long to wait for a lock before treating the file as locked (default 2 s). */
  busyTimeoutMs?: number;
}

export interface DesktopImageCache {
  get(store: CacheStore, username: string): Promise<IpcImage[]>;
  put(store: CacheStore, username: string, images: IpcImage[]): Promise<void>;
  clear(): Promise<void>;
  /** Total cached bytes (for tests and the log). */
  size(): number;
  close(): void;
}

/** The error every method rejects with when local storage fails. */
export class ImageCacheError extends Error {
  constructor(cause?: unknown) {
    super(IMAGE_CACHE_ERROR, { cause });
    this.name = 'ImageCacheError';
  }
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS entries (
    store TEXT NOT NULL,
    username TEXT NOT NULL,
    size INTEGER NOT NULL,
    last_used INTEGER NOT NULL,
    PRIMARY KEY (store, username)
  );
  CREATE INDEX IF NOT EXISTS entries_last_used ON entries (last_used);
  CREATE TABLE IF NOT EXISTS images (
    store TEXT NOT NULL,
    username TEXT NOT NULL,
    position INTEGER NOT NULL,
    url TEXT NOT NULL,
    type TEXT,
    bytes BLOB NOT NULL,
    PRIMARY KEY (store, username, position)
  );
`;

/** SQLite failures that a fresh file fixes (corrupt, not a database, locked, unreadable). */
function isBrokenDatabase(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^SQLITE_(NOTADB|CORRUPT|BUSY|LOCKED|CANTOPEN|IOERR)/.test(code);
}

interface ImageRow {
  url: string;
  type: string | null;
  bytes: Buffer;
}

export function openImageCache(options: ImageCacheOptions): DesktopImageCache {
  const maxBytes = options.maxBytes ?? DEFAULT_IMAGE_CACHE_BYTES;
  const now = options.now ?? Date.now;
  const onError = options.onError ?? ((message, cause) => console.warn(`[image-cache] ${message}`, cause));
  let db: Database.Database | null = null;
  /** The database was recreated: the next get/put tells the page once. */
  let pendingReport: unknown = null;

  function open(file: string): Database.Database {
    const conn = new Database(file, { timeout: options.busyTimeoutMs ?? 2000 });
    try {
      conn.pragma('journal_mode = WAL');
      // Deleted images are overwritten, not left in free pages (logout clears the cache).
      conn.pragma('secure_delete = ON');
      conn.exec(SCHEMA);
      return conn;
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  /** Moves the broken file (and its WAL) aside and opens a fresh one; memory when even that fails. */
  function recreate(cause: unknown): Database.Database {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    db = null;
    pendingReport = cause;
    onError(IMAGE_CACHE_ERROR, cause);
    const aside = `${options.file}.broken-${Date.now()}`;
    try {
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(options.file + suffix)) renameSync(options.file + suffix, aside + suffix);
      }
      return open(options.file);
    } catch (err) {
      // Still locked or unwritable (Windows keeps open files in place): keep going in memory.
      onError(IMAGE_CACHE_ERROR, err);
      return open(':memory:');
    }
  }

  function connection(): Database.Database {
    if (db) return db;
    try {
      db = open(options.file);
    } catch (err) {
      if (!isBrokenDatabase(err)) throw err;
      db = recreate(err);
    }
    return db;
  }

  /** Runs `fn` on the database; a broken file is recreated and the call rejects with the spec's text. */
  function run<T>(fn: (conn: Database.Database) => T, { report = true } = {}): T {
    try {
      const conn = connection();
      if (report && pendingReport) {
        const cause = pendingReport;
        pendingReport = null;
        throw new ImageCacheError(cause);
      }
      return fn(conn);
    } catch (err) {
      if (err instanceof ImageCacheError) throw err;
      if (isBrokenDatabase(err)) {
        db = recreate(err);
        pendingReport = null; // reported by this rejection
      }
      throw new ImageCacheError(err);
    }
  }

  function totalSize(conn: Database.Database): number {
    const row = conn.prepare('SELECT COALESCE(SUM(size), 0) AS total FROM entries').get() as { total: number };
    return row.total;
  }

  function remove(conn: Database.Database, store: string, username: string): void {
    conn.prepare('DELETE FROM images WHERE store = ? AND username = ?').run(store, username);
    conn.prepare('DELETE FROM entries WHERE store = ? AND username = ?').run(store, username);
  }

  return {
    async get(store, username) {
      return run((conn) => {
        const rows = conn
          .prepare('SELECT url, type, bytes FROM images WHERE store = ? AND username = ? ORDER BY position')
          .all(store, username) as ImageRow[];
        if (rows.length > 0) {
          conn.prepare('UPDATE entries SET last_used = ? WHERE store = ? AND username = ?').run(now(), store, username);
        }
        return rows.map((r) => ({
          url: r.url,
          // A copy of exactly these bytes: IPC serialises a view's whole underlying buffer.
          bytes: new Uint8Array(r.bytes),
          ...(r.type ? { type: r.type } : {}),
        }));
      });
    },

    async put(store, username, images) {
      run((conn) => {
        const size = images.reduce((sum, image) => sum + image.bytes.byteLength + image.url.length, 0);
        conn.transaction(() => {
          remove(conn, store, username);
          if (images.length === 0) return;
          if (size > maxBytes) throw new ImageCacheError(new Error(`entry of ${size} bytes exceeds the cap of ${maxBytes}`));
          const insert = conn.prepare('INSERT INTO images (store, username, position, url, type, bytes) VALUES (?, ?, ?, ?, ?, ?)');
          images.forEach((image, i) => insert.run(store, username, i, image.url, image.type ?? null, Buffer.from(image.bytes)));
          conn.prepare('INSERT INTO entries (store, username, size, last_used) VALUES (?, ?, ?, ?)').run(store, username, size, now());
          // Least recently used first (rowid breaks ties); never the entry just written.
          const oldest = conn.prepare(
            'SELECT store, username FROM entries WHERE NOT (store = ? AND username = ?) ORDER BY last_used, rowid LIMIT 1',
          );
          while (totalSize(conn) > maxBytes) {
            const victim = oldest.get(store, username) as { store: string; username: string } | undefined;
            if (!victim) break;
            remove(conn, victim.store, victim.username);
          }
        })();
      });
    },

    async clear() {
      // Files moved aside still hold the previous user's images: logout removes them too.
      try {
        const prefix = `${path.basename(options.file)}.broken-`;
        for (const name of readdirSync(path.dirname(options.file))) {
          if (name.startsWith(prefix)) rmSync(path.join(path.dirname(options.file), name), { force: true });
        }
      } catch (err) {
        onError(IMAGE_CACHE_ERROR, err);
      }
      run(
        (conn) => {
          conn.exec('DELETE FROM images; DELETE FROM entries;');
          conn.exec('VACUUM');
        },
        { report: false },
      );
    },

    size: () => run(totalSize, { report: false }),

    close() {
      db?.close();
      db = null;
    },
  };
}
