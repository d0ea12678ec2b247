/**
 * `npm run backup`'s reconciliation: the payment provider's card payments and withdrawals'
 * Transfers of the last week against the ledger of what was backed up (the SQLite copy, or the
 * PostgreSQL database), so a charge without its credit or a Transfer without its withdrawal is
 * reported where an operator looks. It reports; it never fails the backup, and writes nothing.
 */
import { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import type { Schema } from '../db/index.js';
import { listSandboxCharges } from '../payments/sandbox-holds.js';
import { requireStripeConfig, stripeClient } from '../payments/stripe-client.js';
import { StripeHolds } from '../payments/stripe-holds.js';
import { listStripeTransfers } from '../payments/stripe-connect.js';
import { listSandboxTransfers } from '../payments/sandbox-transfers.js';
import { RECONCILE_WINDOW_MS, describeDiscrepancies, reconcileCharges } from '../wallet/reconcile.js';
import { reconcileTransfers } from '../wallet/reconcile-transfers.js';

const noSavedCards = () => Promise.reject(new Error('reconciliation charges no card'));

/** One line per discrepancy (none when the provider and the ledger agree). */
export async function reconcileBackup(config: Config, schema: Schema, sqliteCopy: string | null, now = new Date()): Promise<string[]> {
  const source = sqliteCopy
    ? new DataSource({ type: 'better-sqlite3', database: sqliteCopy, entities: schema.entities, readonly: true })
    : new DataSource({ type: 'postgres', url: config.databaseUrl, entities: schema.entities, extra: { max: 1 } });
  await source.initialize();
  try {
    const since = new Date(now.getTime() - RECONCILE_WINDOW_MS);
    const stripe = config.payments === 'stripe' ? stripeClient(requireStripeConfig(config)) : null;
    const charges = stripe ? await new StripeHolds(stripe, noSavedCards).list(since) : await listSandboxCharges(source.manager, since);
    const transfers = stripe ? await listStripeTransfers(stripe, since) : await listSandboxTransfers(source.manager, since);
    return describeDiscrepancies([
      ...(await reconcileCharges(source.manager, charges, since)),
      ...(await reconcileTransfers(source.manager, transfers, since, now)),
    ]);
  } finally {
    await source.destroy();
  }
}
