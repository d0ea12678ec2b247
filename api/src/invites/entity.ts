import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

export type InviteStatus = 'available' | 'used';

export interface Invite {
  id: string;
  code: string;
  /** null for invites made by the server itself (first start, `npm run invite`). */
  ownerId: string | null;
  status: InviteStatus;
  usedById: string | null;
  createdAt: Date;
  usedAt: Date | null;
}

export const InviteEntity = new EntitySchema<Invite>({
  name: 'Invite',
  tableName: 'invites',
  columns: {
    id: idColumn,
    code: { type: 'varchar', length: 64, unique: true },
    ownerId: { ...refColumn(true), name: 'owner_id' },
    status: { type: 'varchar', length: 16, default: 'available' },
    usedById: { ...refColumn(true), name: 'used_by_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    usedAt: { ...dateColumn(true), name: 'used_at' },
  },
  indices: [{ name: 'idx_invites_owner', columns: ['ownerId'] }],
});

/** An account made from `inviterId`'s shared link or wishlist: counted against the joins a link lets in. */
export interface LinkJoin {
  id: string;
  inviterId: string;
  userId: string;
  createdAt: Date;
}

export const LinkJoinEntity = new EntitySchema<LinkJoin>({
  name: 'LinkJoin',
  tableName: 'link_joins',
  columns: {
    id: idColumn,
    inviterId: { ...refColumn(), name: 'inviter_id' },
    userId: { ...refColumn(), name: 'user_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
