import { EntitySchema } from 'typeorm';
import { dateColumn, refColumn } from '../db/columns.js';
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
  },
});
