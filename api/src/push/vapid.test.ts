import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { resolveVapid } from './vapid.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-vapid-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('VAPID keys', () => {
  it('are generated once into DATA_DIR, owner-only, and the same after a restart', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://giftlink.example' });
    const first = resolveVapid(config);
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, 'vapid.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveVapid(loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://giftlink.example' }))).toEqual(first);
    expect(first.subject).toBe('mailto:no-reply@giftlink.example');
  });

  it('come from the environment when set (both or neither), with its subject', () => {
    const dir = dataDir();
    const keys = resolveVapid(loadConfig({ DATA_DIR: dataDir() }));
    const env = {
      DATA_DIR: dir,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.org',
    };
    expect(resolveVapid(loadConfig(env))).toEqual({
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      subject: 'mailto:ops@example.org',
    });
    expect(fs.existsSync(path.join(dir, 'vapid.json'))).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dir, VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/set together/);
  });
});
