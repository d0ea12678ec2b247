import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printNewInvite } from './cli.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-invite-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run invite', () => {
  it('prints the invite under PUBLIC_URL', async () => {
    const printed: string[] = [];
    const url = await printNewInvite({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://gifts.example.com/', PORT: '4000' }, (l) =>
      printed.push(l),
    );
    expect(printed).toEqual([url]);
    expect(url).toMatch(/^https:\/\/gifts\.example\.com\/invite\/[A-Za-z0-9_-]{22}$/);
  });

  it('prints http://localhost:$PORT without PUBLIC_URL, never a fixed port', async () => {
    const printed: string[] = [];
    await printNewInvite({ DATA_DIR: dataDir(), PORT: '4567' }, (l) => printed.push(l));
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^http:\/\/localhost:4567\/invite\/[A-Za-z0-9_-]{22}$/);
  });
});
