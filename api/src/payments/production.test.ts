import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { runCommand } from '../testing/commands.js';

/** The sandbox's deposits are free money: production refuses it unless told it is a demonstration. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-sandbox-prod-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const STRIPE = {
  PAYMENTS: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_PRICE_ID: 'price_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};

describe('PAYMENTS=sandbox with NODE_ENV=production', () => {
  it('is refused, also by default (sandbox is the default provider), with a message that says why and what to set', () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'production', PAYMENTS: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'false' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/PAYMENTS=sandbox .*free money.*PAYMENTS=stripe.*ALLOW_SANDBOX_PAYMENTS=true/);
    }
  });

  it('is accepted when ALLOW_SANDBOX_PAYMENTS says it is a demonstration, and Stripe in production and the sandbox elsewhere are', () => {
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_SANDBOX_PAYMENTS: 'true' }).payments).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'production', ...STRIPE }).payments).toBe('stripe');
    expect(loadConfig({ NODE_ENV: 'test' }).payments).toBe('sandbox');
    expect(loadConfig({}).payments).toBe('sandbox');
  });

  it('stops the server at start-up, before it writes anything', async () => {
    const run = await runCommand('main.ts', { NODE_ENV: 'production', DATA_DIR: dir, PORT: '0', ENV_FILE: '' }, dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PAYMENTS=sandbox is refused with NODE_ENV=production: its deposits are free money.');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
