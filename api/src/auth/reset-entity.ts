import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/**
 * A password-reset link that was emailed (auth/reset.ts). Only the SHA-256 of its token is kept:
 * someone who reads the database cannot follow a link from it.
 */
export interface PasswordReset {
  id: string;
  userId: string;
  /** Hex SHA-256 of the token in the link. */
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set when the link was used, or when a newer request (or a reset) made it void. */
  usedAt: Date | null;
}

export const PasswordResetEntity = new EntitySchema<PasswordReset>({
  name: 'PasswordReset',
  tableName: 'password_resets',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    tokenHash: { type: 'varchar', length: 64, unique: true, name: 'token_hash' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    expiresAt: { ...dateColumn(), name: 'expires_at' },
    usedAt: { ...dateColumn(true), name: 'used_at' },
  },
  indices: [{ name: 'idx_password_resets_user', columns: ['userId'] }],
});
