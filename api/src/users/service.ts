import { Not } from 'typeorm';
import type { z } from 'zod';
import type { Session } from '../auth/entity.js';
import { hashPassword } from '../auth/passwords.js';
import { createSession, revokeUserSessions, type NewSession } from '../auth/session.js';
import { DUPLICATE_ACCOUNT } from '../auth/service.js';
import type { Database } from '../db/index.js';
import { badRequest, isUniqueViolation, notFound } from '../errors.js';
import { UserEntity, type User } from './entity.js';
import type { UpdateUserBody } from './schemas.js';

export async function findUser(db: Database, by: { userId?: string; username?: string }): Promise<User> {
  const user = by.userId
    ? await db.manager.findOneBy(UserEntity, { id: by.userId })
    : await db.manager.findOneBy(UserEntity, { username: by.username ?? '' });
  if (!user) throw notFound('User not found');
  return user;
}

type Patch = z.output<typeof UpdateUserBody>;

/**
 * Applies the owner's edits. A new password, in the same transaction, revokes every session of
 * the user and opens a new one (`newSession`) for the caller, which the route hands back.
 */
export async function updateUser(
  db: Database,
  userId: string,
  patch: Patch,
  newSession: NewSession,
): Promise<{ user: User; session?: Session }> {
  const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
  try {
    return await db.transaction(async (em) => {
      const user = await em.findOneBy(UserEntity, { id: userId });
      if (!user) throw notFound('User not found');
      for (const field of ['username', 'email'] as const) {
        const value = patch[field];
        if (value !== undefined && value !== user[field]) {
          const taken = await em.existsBy(UserEntity, { [field]: value, id: Not(userId) });
          if (taken) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
        }
      }
      const changes: Partial<User> = { updatedAt: new Date() };
      if (patch.username !== undefined) changes.username = patch.username;
      if (patch.email !== undefined) changes.email = patch.email;
      if (patch.displayName !== undefined) changes.displayName = patch.displayName;
      if (patch.bio !== undefined) changes.bio = patch.bio;
      if (patch.location !== undefined) changes.location = patch.location;
      if (passwordHash) changes.passwordHash = passwordHash;
      await em.update(UserEntity, { id: userId }, changes);
      let session: Session | undefined;
      if (passwordHash) {
        await revokeUserSessions(em, userId);
        session = await createSession(em, userId, newSession);
      }
      return { user: { ...user, ...changes }, session };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
    throw err;
  }
}

export async function setPicture(
  db: Database,
  userId: string,
  slot: 'profilePicture' | 'coverPicture',
  location: string,
): Promise<{ user: User; previous: string | null }> {
  return db.transaction(async (em) => {
    const user = await em.findOneBy(UserEntity, { id: userId });
    if (!user) throw notFound('User not found');
    const previous = user[slot];
    const changes = { [slot]: location, updatedAt: new Date() };
    await em.update(UserEntity, { id: userId }, changes);
    return { user: { ...user, ...changes }, previous };
  });
}
