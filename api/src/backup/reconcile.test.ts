import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../testing/commands.js';
import { buildUser, readyPayoutsFor, startTestServer, type TestServer } from '../testing/server.js';

/** `npm run backup` reconciles the provider's card payments and Transfers with the ledger it backed up, and says so plainly. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const backup = () => {
  const { dataDir, databaseUrl } = server.deps.config;
  const env = { ENV_FILE: '', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', BACKUP_KEY: 'the passphrase of these tests' };
  return runCommand('backup/cli.ts', env, dataDir, ['backup']);
};

describe(`npm run backup's reconciliation (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('reports agreement, then a charge the ledger never credited and a Transfer it never sent, without failing the backup', async () => {
    const who = await buildUser(server);
    const paid = await server.request('POST', '/api/wallet/card-deposit', {
      token: who.token,
      body: { amount: 20, card: PAYS },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(paid.status).toBe(200);
    await readyPayoutsFor(server, who);
    const out = await server.request('POST', '/api/billing-settings-withdrawal', {
      token: who.token,
      body: { balance: 5 },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(out.status).toBe(200);
    const agreed = await backup();
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(agreed.stderr).toContain(
      "Reconciliation: every card payment the provider took has its credit in the ledger, and every credit its payment; every withdrawal the ledger sent has the provider's transfer, and every transfer its withdrawal",
    );

    const orphan = await server.deps.payments.chargeCard({
      userId: who.user._id,
      amountCents: 6800,
      idempotencyKey: `giftlink:card_deposit:${crypto.randomUUID()}`,
      source: { kind: 'card', card: PAYS, save: false },
    });
    const destination = { accountId: (await server.deps.payments.listTransfers(new Date(0)))[0].destination };
    const stray = await server.deps.payments.payout({
      userId: who.user._id,
      amountCents: 300,
      idempotencyKey: `giftlink:withdrawal:${crypto.randomUUID()}`,
      destination,
    });
    const differs = await backup();
    expect(differs.code, differs.stderr).toBe(0);
    expect(differs.stderr).toContain("Reconciliation: the payment provider's records and the ledger differ (2):");
    expect(differs.stderr).toContain(`payment ${orphan.reference}: the provider took $68.00 and the ledger credited $0.00`);
    expect(differs.stderr).toContain(
      `payment ${stray.reference}: the provider sent $3.00 to ${destination.accountId} for a withdrawal the ledger does not know`,
    );
  }, 60_000);
});
