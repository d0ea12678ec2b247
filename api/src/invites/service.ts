import crypto from 'node:crypto';
import { In, IsNull, type EntityManager } from 'typeorm';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { UserEntity } from '../users/entity.js';
import { InviteEntity, type Invite } from './entity.js';

export const inviteUrl = (config: Config, code: string) => `${config.publicUrl}/invite/${code}`;

export async function createInvite(em: EntityManager, ownerId: string | null): Promise<Invite> {
  const invite: Invite = {
    id: crypto.randomUUID(),
    code: crypto.randomBytes(16).toString('base64url'),
    ownerId,
    status: 'available',
    usedById: null,
    createdAt: new Date(),
    usedAt: null,
  };
  await em.insert(InviteEntity, invite);
  return invite;
}

/**
 * Marks an available invite used, inside the registering transaction. The conditional update
 * makes one invite make one account even when registrations race.
 */
export async function consumeInvite(em: EntityManager, code: string, userId: string): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(InviteEntity)
    .set({ status: 'used', usedById: userId, usedAt: new Date() })
    .where('code = :code AND status = :status', { code, status: 'available' })
    .execute();
  return result.affected === 1;
}

export function findAvailable(db: Database, code: string): Promise<Invite | null> {
  return db.manager.findOneBy(InviteEntity, { code, status: 'available' });
}

export function listInvites(db: Database, ownerId: string): Promise<Invite[]> {
  return db.manager.find(InviteEntity, { where: { ownerId }, order: { createdAt: 'ASC' } });
}

/** The usernames of the open accounts made with these invites, by user id (a closed account's name may be someone else's now). */
export async function usedByNames(db: Database, invites: Invite[]): Promise<Map<string, string>> {
  const ids = invites.map((invite) => invite.usedById).filter((id): id is string => id !== null);
  if (ids.length === 0) return new Map();
  const users = await db.manager.find(UserEntity, { where: { id: In(ids), closedAt: IsNull() }, select: { id: true, username: true } });
  return new Map(users.map((user) => [user.id, user.username]));
}

/** A new server-made invite (for `npm run invite`). */
export function createSystemInvite(db: Database): Promise<Invite> {
  return db.transaction((em) => createInvite(em, null));
}

/**
 * On a start with no accounts: the invite for the first account (an unused server-made one is
 * reused, so restarts do not pile them up). Null once someone has registered.
 */
export async function firstInvite(db: Database): Promise<Invite | null> {
  return db.transaction(async (em) => {
    if ((await em.count(UserEntity)) > 0) return null;
    const existing = await em.findOne(InviteEntity, {
      where: { ownerId: IsNull(), status: 'available' },
      order: { createdAt: 'ASC' },
    });
    return existing ?? createInvite(em, null);
  });
}
