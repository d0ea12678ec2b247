import crypto from 'node:crypto';
import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn } from '../db/columns.js';

export interface User {
  id: string;
  username: string;
  email: string;
  passwordHash: string;
  displayName: string;
  bio: string;
  location: string;
  profilePicture: string | null;
  coverPicture: string | null;
  /**
   * End of the paid subscription benefits; null when never subscribed. Set only in the
   * transaction that changes the subscription; `isSubscribed(user, now)` (subscriptions/policy.ts)
   * is derived from it. The old `is_subscribed` column stays in the table, unread.
   */
  subscribedUntil: Date | null;
  stripeCustomerId: string | null;
  balanceCents: number;
  /** Visitors of this user's links may register with one of their invites. */
  letVisitorsJoin: boolean;
  /** People the user talks with by name may see when they are online (`GET /api/onlineusers/{id}`); off unless chosen. */
  showPresence: boolean;
  /** When the invite refill clock last started or ticked; null: since the account was made. */
  invitesRefilledAt: Date | null;
  /** When a moderator suspended the account (`npm run moderation -- suspend`); null: not suspended. */
  suspendedAt: Date | null;
  suspensionReason: string | null;
  /** When the account was closed (account/close.ts); null while open. */
  closedAt?: Date | null;
  /** Passed the age gate at registration; false for accounts made before it, which were never asked. */
  adult: boolean;
  /** The year of the date of birth given at registration (the date itself is never kept); null when never asked. */
  birthYear: number | null;
  /** When the user paused gifts to their link and wishlist (users/pause.ts); null while they take gifts. */
  giftsPausedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const UserEntity = new EntitySchema<User>({
  name: 'User',
  tableName: 'users',
  columns: {
    id: idColumn,
    username: { type: 'varchar', length: 40, unique: true },
    email: { type: 'varchar', length: 40, unique: true },
    passwordHash: { type: 'varchar', length: 255, name: 'password_hash' },
    displayName: { type: 'varchar', length: 40, default: '', name: 'display_name' },
    bio: { type: 'varchar', length: 40, default: '' },
    location: { type: 'varchar', length: 40, default: '' },
    profilePicture: { type: 'varchar', length: 255, nullable: true, name: 'profile_picture' },
    coverPicture: { type: 'varchar', length: 255, nullable: true, name: 'cover_picture' },
    subscribedUntil: { ...dateColumn(true), name: 'subscribed_until' },
    stripeCustomerId: { type: 'varchar', length: 255, nullable: true, name: 'stripe_customer_id' },
    balanceCents: centsColumn({ name: 'balance_cents' }),
    letVisitorsJoin: { type: 'boolean', default: true, name: 'let_visitors_join' },
    showPresence: { type: 'boolean', default: false, name: 'show_presence' },
    invitesRefilledAt: { ...dateColumn(true), name: 'invites_refilled_at' },
    suspendedAt: { ...dateColumn(true), name: 'suspended_at' },
    suspensionReason: { type: 'varchar', length: 500, nullable: true, name: 'suspension_reason' },
    closedAt: { ...dateColumn(true), name: 'closed_at' },
    adult: { type: 'boolean', default: false },
    birthYear: { type: 'integer', nullable: true, name: 'birth_year' },
    giftsPausedAt: { ...dateColumn(true), name: 'gifts_paused_at' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    updatedAt: { ...dateColumn(), name: 'updated_at' },
  },
});

/** A new account's row: everything but who they are starts empty. */
export function newUserRecord(fields: {
  username: string;
  email: string;
  passwordHash: string;
  id?: string;
  adult?: boolean;
  birthYear?: number | null;
}): User {
  const now = new Date();
  return {
    id: fields.id ?? crypto.randomUUID(),
    username: fields.username,
    email: fields.email,
    passwordHash: fields.passwordHash,
    displayName: fields.username,
    bio: '',
    location: '',
    profilePicture: null,
    coverPicture: null,
    subscribedUntil: null,
    stripeCustomerId: null,
    balanceCents: 0,
    letVisitorsJoin: true,
    showPresence: false,
    invitesRefilledAt: now,
    suspendedAt: null,
    suspensionReason: null,
    adult: fields.adult ?? false,
    birthYear: fields.birthYear ?? null,
    giftsPausedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
