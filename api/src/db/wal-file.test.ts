import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalFile } from './wal-file.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-wal-'));
  file = path.join(dir, 'giftlink.sqlite-wal');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** This process's open descriptors of `file` (Linux's /proc). */
function openHandles(): number {
  return fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed since the listing
    }
  }).length;
}

describe('the WAL file the group committer flushes', () => {
  it.runIf(fs.existsSync('/proc/self/fd'))('is opened at the first flush and kept open for the next ones, until closed', async () => {
    fs.writeFileSync(file, 'frames');
    const wal = new WalFile(file);
    expect(openHandles()).toBe(0);
    await wal.sync();
    expect(openHandles()).toBe(1);
    await wal.sync();
    await Promise.all([wal.sync(), wal.sync()]);
    expect(openHandles()).toBe(1);
    await wal.close();
    expect(openHandles()).toBe(0);
  });

  it('fails a flush while open if the file is missing, and opens it again at the next flush', async () => {
    const wal = new WalFile(file);
    await expect(wal.sync()).rejects.toMatchObject({ code: 'ENOENT' });
    fs.writeFileSync(file, 'frames');
    await expect(wal.sync()).resolves.toBeUndefined();
    await wal.close();
  });

  it('once closed, still flushes a last commit, and a WAL already removed is not an error', async () => {
    fs.writeFileSync(file, 'frames');
    const wal = new WalFile(file);
    await wal.sync();
    await wal.close();
    await expect(wal.sync()).resolves.toBeUndefined();
    fs.rmSync(file);
    await expect(wal.sync()).resolves.toBeUndefined();
  });
});
