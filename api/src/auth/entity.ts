import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/**
 * A signed-in device: login, registration and a password change each open one, and every token
 * names its session. A request or socket is authenticated only while its session exists, belongs
 * to the token's user, is not revoked and has not expired, so logout (and a password change, for
 * the other sessions) ends a token at once, on every API process.
 */
export interface Session {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set by logout, or by a password change for every session but the new one. */
  revokedAt: Date | null;
  /** The last request or socket handshake, written at most once a minute (a conditional update when stale). */
  lastSeenAt: Date;
  /** The client's User-Agent at sign-in (truncated), to tell sessions apart on a sessions screen. */
  userAgent: string | null;
}

export const SessionEntity = new EntitySchema<Session>({
  name: 'Session',
  tableName: 'sessions',
  columns: {
    id: idColumn,
    userId: { ...refColumn(), name: 'user_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    expiresAt: { ...dateColumn(), name: 'expires_at' },
    revokedAt: { ...dateColumn(true), name: 'revoked_at' },
    lastSeenAt: { ...dateColumn(), name: 'last_seen_at' },
    userAgent: { type: 'varchar', length: 255, nullable: true, name: 'user_agent' },
  },
  indices: [{ name: 'idx_sessions_user', columns: ['userId'] }],
});

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
