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
