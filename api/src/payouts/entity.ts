import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, refColumn } from '../db/columns.js';
import type { PayoutStatus } from '../../contract/payouts.js';

/** A user's connected account at the provider, as its latest account update left it. */
export interface PayoutAccount {
  userId: string;
  /** `acct_…` (Stripe's, or the sandbox's). */
  accountId: string;
  status: PayoutStatus;
  /** `requirements.currently_due` as JSON: what the provider asks for now. */
  requirements: string;
  bankLast4: string | null;
  updatedAt: Date;
  /** The last bank payout that failed (after its Transfer), until a later one is paid: null otherwise. */
  failedPayoutCents: number | null;
  /** Stripe's `failure_code` and `failure_message` of that payout. */
  failedPayoutCode: string | null;
  failedPayoutMessage: string | null;
  /** When that payout was made (a payout made before it does not clear it) and when it failed. */
  failedPayoutCreated: Date | null;
  failedPayoutAt: Date | null;
  /** The time of the last payout event applied: an older one changes nothing. */
  payoutEventAt: Date | null;
}

export const PayoutAccountEntity = new EntitySchema<PayoutAccount>({
  name: 'PayoutAccount',
  tableName: 'payout_accounts',
  columns: {
    userId: { ...refColumn(), primary: true, name: 'user_id' },
    accountId: { type: 'varchar', length: 64, unique: true, name: 'account_id' },
    status: { type: 'varchar', length: 20 },
    requirements: { type: 'text' },
    bankLast4: { type: 'varchar', length: 4, nullable: true, name: 'bank_last4' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
    failedPayoutCents: centsColumn({ name: 'failed_payout_cents', nullable: true, default: undefined }),
    failedPayoutCode: { type: 'varchar', length: 64, nullable: true, name: 'failed_payout_code' },
    failedPayoutMessage: { type: 'varchar', length: 500, nullable: true, name: 'failed_payout_message' },
    failedPayoutCreated: { ...dateColumn(true), name: 'failed_payout_created' },
    failedPayoutAt: { ...dateColumn(true), name: 'failed_payout_at' },
    payoutEventAt: { ...dateColumn(true), name: 'payout_event_at' },
  },
});
