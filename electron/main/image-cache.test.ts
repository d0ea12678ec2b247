import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMAGE_CACHE_ERROR } from '../../api/contract/texts.js';
import { IMAGE_CACHE_FILE, openImageCache, type DesktopImageCache } from './image-cache.js';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('desktop SQLite image cache (real better-sqlite3)', () => {
  let dir: string;
  let file: string;
  let clock: number;
  const opened: DesktopImageCache[] = [];
  const errors: string[] = [];
  const open = (maxBytes?: number) => {
    const cache = openImageCache({ file, maxBytes, now: () => ++clock, onError: (message) => errors.push(message), busyTimeoutMs: 100 });
    opened.push(cache);
    return cache;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'giftlink-images-'));
    file = path.join(dir, IMAGE_CACHE_FILE);
    clock = 0;
    errors.length = 0;
  });
  afterEach(() => {
    for (const cache of opened.splice(0)) cache.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts and gets images per store and username, in order, with their type', async () => {
    const cache = open();
    expect(await cache.get('wishlistImages', 'ana')).toEqual([]);
    await cache.put('wishlistImages', 'ana', [
      { url: 'https://cdn.example/a.png', bytes: bytes(3, 7), type: 'image/png' },
      { url: 'https://cdn.example/b.jpg', bytes: bytes(2, 9) },
    ]);
    const got = await cache.get('wishlistImages', 'ana');
    expect(got.map((i) => i.url)).toEqual(['https://cdn.example/a.png', 'https://cdn.example/b.jpg']);
    expect(got[0].bytes).toBeInstanceOf(Uint8Array);
    expect([...got[0].bytes]).toEqual([7, 7, 7]);
    expect(got[0].type).toBe('image/png');
    expect(got[1].type).toBeUndefined();
    // Other store, other user: separate entries.
    expect(await cache.get('shareImages', 'ana')).toEqual([]);
    expect(await cache.get('wishlistImages', 'bo')).toEqual([]);
    // It is on disk: a new connection reads it back.
    cache.close();
    expect((await open().get('wishlistImages', 'ana')).length).toBe(2);
  });

  it('replaces an entry, and an empty list removes it', async () => {
    const cache = open();
    await cache.put('shareImages', 'ana', [
      { url: 'u1', bytes: bytes(10) },
      { url: 'u2', bytes: bytes(10) },
    ]);
    await cache.put('shareImages', 'ana', [{ url: 'u3', bytes: bytes(4, 3) }]);
    expect((await cache.get('shareImages', 'ana')).map((i) => i.url)).toEqual(['u3']);
    expect(cache.size()).toBe(4 + 'u3'.length);
    await cache.put('shareImages', 'ana', []);
    expect(await cache.get('shareImages', 'ana')).toEqual([]);
    expect(cache.size()).toBe(0);
  });

  it('evicts the least recently used entries past the size cap', async () => {
    const cache = open(300);
    await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(99) }]); // 100 bytes each
    await cache.put('wishlistImages', 'bo', [{ url: 'b', bytes: bytes(99) }]);
    await cache.put('shareImages', 'cy', [{ url: 'c', bytes: bytes(99) }]);
    await cache.get('wishlistImages', 'ana'); // ana is now the most recently used
    await cache.put('shareImages', 'di', [{ url: 'd', bytes: bytes(99) }]); // over the cap: bo goes
    expect(await cache.get('wishlistImages', 'bo')).toEqual([]);
    expect((await cache.get('wishlistImages', 'ana')).length).toBe(1);
    expect(cache.size()).toBe(300);
    await cache.put('shareImages', 'ed', [{ url: 'e', bytes: bytes(199) }]); // needs two: cy, then di
    expect(await cache.get('shareImages', 'cy')).toEqual([]);
    expect(await cache.get('shareImages', 'di')).toEqual([]);
    expect((await cache.get('shareImages', 'ed')).length).toBe(1);
    expect(cache.size()).toBeLessThanOrEqual(300);
  });

  it('refuses one entry larger than the whole cap, keeping the rest', async () => {
    const cache = open(100);
    await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(50) }]);
    await expect(cache.put('wishlistImages', 'bo', [{ url: 'b', bytes: bytes(200) }])).rejects.toThrow(IMAGE_CACHE_ERROR);
    expect((await cache.get('wishlistImages', 'ana')).length).toBe(1);
  });

  it('clears every store at logout', async () => {
    const cache = open();
    await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }]);
    await cache.put('shareImages', 'ana', [{ url: 's', bytes: bytes(5) }]);
    await cache.clear();
    expect(await cache.get('wishlistImages', 'ana')).toEqual([]);
    expect(await cache.get('shareImages', 'ana')).toEqual([]);
    expect(cache.size()).toBe(0);
  });

  it('moves a garbage file aside, recreates the database and reports the spec text once', async () => {
    writeFileSync(file, 'this is not a database, just some garbage bytes '.repeat(200));
    const cache = open();
    await expect(cache.get('wishlistImages', 'ana')).rejects.toThrow(IMAGE_CACHE_ERROR);
    expect(errors).toContain('Could not save images locally. Wishlist images may not save properly.');
    expect(readdirSync(dir).some((f) => f.startsWith(`${IMAGE_CACHE_FILE}.broken-`))).toBe(true);
    // Then it works again on the fresh file.
    await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }]);
    expect((await cache.get('wishlistImages', 'ana')).length).toBe(1);
    // Logout also removes the file moved aside (it may hold the previous user's images).
    await cache.clear();
    expect(readdirSync(dir).some((f) => f.includes('.broken-'))).toBe(false);
  });

  it('recovers when the file is corrupted while open', async () => {
    const cache = open();
    await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }]);
    cache.close();
    writeFileSync(file, Buffer.alloc(8192, 0xab));
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    const again = open();
    await expect(again.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }])).rejects.toThrow(IMAGE_CACHE_ERROR);
    await again.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }]);
    expect((await again.get('wishlistImages', 'ana')).length).toBe(1);
  });

  it('moves a locked database aside and carries on with a fresh one', async () => {
    const locker = new Database(file);
    locker.exec('CREATE TABLE other (x)');
    locker.exec('BEGIN EXCLUSIVE');
    try {
      const cache = open();
      await expect(cache.get('wishlistImages', 'ana')).rejects.toThrow(IMAGE_CACHE_ERROR);
      await cache.put('wishlistImages', 'ana', [{ url: 'a', bytes: bytes(5) }]);
      expect((await cache.get('wishlistImages', 'ana')).length).toBe(1);
    } finally {
      locker.close();
    }
  });
});
