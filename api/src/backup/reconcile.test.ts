import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../testing/commands.js';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';

/** `npm run backup` reconciles the provider's card payments with the ledger it backed up, and says so plainly. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const backup = () => {
  const { dataDir, databaseUrl } = server.deps.config;
  return runCommand('backup/cli.ts', { ENV_FILE: '', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' }, dataDir, ['backup']);
};

describe(`npm run backup's reconciliation (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('reports agreement, then a charge the ledger never credited, without failing the backup', async () => {
    const who = await buildUser(server);
    const paid = await server.request('POST', '/api/wallet/card-deposit', {
      token: who.token,
      body: { amount: 20, card: PAYS },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(paid.status).toBe(200);
    const agreed = await backup();
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stderr).toContain('Reconciliation: every card payment the provider took has its credit in the ledger');

    const orphan = await server.deps.payments.chargeCard({
      userId: who.user._id,
      amountCents: 6800,
      idempotencyKey: `giftlink:card_deposit:${crypto.randomUUID()}`,
      source: { kind: 'card', card: PAYS, save: false },
    });
    const differs = await backup();
    expect(differs.code, differs.stderr).toBe(0);
    expect(differs.stderr).toContain("Reconciliation: the payment provider's records and the ledger differ (1):");
    expect(differs.stderr).toContain(`payment ${orphan.reference}: the provider took $68.00 and the ledger credited $0.00`);
  }, 60_000);
});
