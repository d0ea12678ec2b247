import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCommand } from '../testing/commands.js';
import { ADULT_BIRTH_DATE, startTestServer, type TestServer } from '../testing/server.js';
import { printNewInvite } from './cli.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-invite-'));
  dirs.push(dir);
  return dir;
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'http://gifts.test' });
});
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const serverPort = () => new URL(server.url).port;

const command = (script: 'invites/cli.ts' | 'moderation/cli.ts', env: Record<string, string>, cwd = dataDir()) =>
  runCommand(script, env, cwd);

/** The running server's database settings, as a .env would give them. */
const serverDatabase = (): Record<string, string> => {
  const { dataDir: dir, databaseUrl } = server.deps.config;
  return databaseUrl ? { DATA_DIR: dir, DATABASE_URL: databaseUrl } : { DATA_DIR: dir };
};

const registerWith = (url: string) =>
  server.request('POST', '/api/auth/register', {
    body: {
      username: `cli${process.pid % 1000}${Date.now() % 1e5}`,
      email: `cli${Date.now()}@example.com`,
      password: 'secret-pass',
      dateOfBirth: ADULT_BIRTH_DATE,
      inviteCode: url.split('/').pop(),
    },
  });

describe('npm run invite', () => {
  it('prints the invite under PUBLIC_URL', async () => {
    const printed: string[] = [];
    const url = await printNewInvite(
      { DATA_DIR: dataDir(), PUBLIC_URL: 'https://gifts.example.com/', PORT: await freePort() },
      (l) => printed.push(l),
      () => undefined,
    );
    expect(printed).toEqual([url]);
    expect(url).toMatch(/^https:\/\/gifts\.example\.com\/invite\/[A-Za-z0-9_-]{22}$/);
  });

  it('prints http://localhost:$PORT without PUBLIC_URL, never a fixed port, and warns that it made a new database', async () => {
    const printed: string[] = [];
    const warned: string[] = [];
    const [dir, port] = [dataDir(), await freePort()];
    await printNewInvite(
      { DATA_DIR: dir, PORT: port },
      (l) => printed.push(l),
      (l) => warned.push(l),
    );
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(new RegExp(`^http://localhost:${port}/invite/[A-Za-z0-9_-]{22}$`));
    expect(warned.join('\n')).toContain(`made a new, empty database (DATA_DIR=${dir})`);
  });

  it('reads .env in its working directory, the environment winning over it, and the server accepts the invite', async () => {
    const cwd = dataDir();
    const file = { ...serverDatabase(), PORT: serverPort(), PUBLIC_URL: 'http://stale.example' };
    fs.writeFileSync(
      path.join(cwd, '.env'),
      Object.entries(file)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
    const run = await command('invites/cli.ts', { PUBLIC_URL: 'http://gifts.test' }, cwd);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const url = run.stdout.trim();
    expect(url).toMatch(/^http:\/\/gifts\.test\/invite\/[A-Za-z0-9_-]{22}$/);
    expect((await registerWith(url)).status).toBe(201);
  });

  it('refuses to make a second database while the server on PORT runs on another, naming the settings', async () => {
    const dir = dataDir();
    const run = await command('invites/cli.ts', { DATA_DIR: dir, PORT: serverPort() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `The Giftlink server at http://127.0.0.1:${serverPort()} uses another database: DATA_DIR=${dir} holds none`,
    );
    expect(run.stderr).toContain('DATABASE_URL, DATA_DIR and PORT');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("refuses an existing database that is not the running server's", async () => {
    const other = dataDir();
    await printNewInvite(
      { DATA_DIR: other, PORT: await freePort() },
      () => undefined,
      () => undefined,
    );
    const run = await command('invites/cli.ts', { DATA_DIR: other, PORT: serverPort() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`uses another database than this command opened (DATA_DIR=${other})`);
  });

  it('warns when the server of its database started under another address than the one it prints', async () => {
    const port = await freePort();
    const run = await command('invites/cli.ts', { ...serverDatabase(), PORT: port });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^http://localhost:${port}/invite/`));
    expect(run.stderr).toContain(`last started at http://gifts.test, this command's address is http://localhost:${port}`);
  });
});

describe('npm run moderation', () => {
  it("refuses a database other than the running server's", async () => {
    const dir = dataDir();
    const run = await command('moderation/cli.ts', { DATA_DIR: dir, PORT: serverPort() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`uses another database: DATA_DIR=${dir} holds none`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("lists the running server's reports with its settings from .env", async () => {
    const cwd = dataDir();
    const file = { ...serverDatabase(), PORT: serverPort(), PUBLIC_URL: 'http://gifts.test' };
    fs.writeFileSync(
      path.join(cwd, '.env'),
      Object.entries(file)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
    const run = await command('moderation/cli.ts', {}, cwd);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: 'No open reports.\n' });
  });
});
