import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/** The first answer to a request carrying an Idempotency-Key, replayed to its repeats. */
export interface IdempotencyRecord {
  id: string;
  userId: string;
  key: string;
  /** What the key was used for (e.g. `wallet.deposit`): the same key elsewhere is refused. */
  scope: string;
  /** A hash of the request's input: the same key with another input is refused. */
  requestHash: string;
  status: number;
  response: string | null;
  createdAt: Date;
}

export const IdempotencyRecordEntity = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_keys',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    key: { type: 'varchar', length: 255 },
    scope: { type: 'varchar', length: 64 },
    requestHash: { type: 'varchar', length: 64, name: 'request_hash' },
    status: { type: 'integer' },
    response: { type: 'text', nullable: true },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  uniques: [{ name: 'uq_idempotency_user_key', columns: ['userId', 'key'] }],
});
