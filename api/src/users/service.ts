import { Not, type EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { Database } from '../db/index.js';
import { ACCOUNT_PASSWORD_WRONG, CURRENT_PASSWORD_REQUIRED, DUPLICATE_ACCOUNT } from '../../contract/texts.js';
import { verifyPassword } from './passwords.js';
import { AppError, badRequest, isUniqueViolation, notFound } from '../errors.js';
import { UserEntity, type User } from './entity.js';
import { checkBio, checkName } from '../text-filter.js';
import type { UpdateUserBody } from '../../contract/users.js';
import { enqueueAlert } from '../alerts/outbox.js';

export async function findUser(db: Database, by: { userId?: string; username?: string }): Promise<User> {
  const user = by.userId
    ? await db.manager.findOneBy(UserEntity, { id: by.userId })
    : await db.manager.findOneBy(UserEntity, { username: by.username ?? '' });
  // A closed account is gone for anyone who looks it up by name; by id (a conversation's other
  // member) it still answers, with its fields erased.
  if (!user || (!by.userId && user.closedAt)) throw notFound('User not found');
  return user;
}

/** What an edit may change: the profile fields, and a new password as its hash (commands/change-password.ts). */
export type UserEdits = Omit<z.output<typeof UpdateUserBody>, 'userId' | 'password' | 'currentPassword'> & { passwordHash?: string };

/**
 * Applies the owner's edits inside the caller's transaction and answers the user as edited. A
 * username or email another account has is refused (`editing` covers the race).
 */
export async function applyUserEdits(em: EntityManager, userId: string, edits: UserEdits): Promise<User> {
  if (edits.bio !== undefined) checkBio(edits.bio);
  checkName(edits.username, edits.displayName, edits.location);
  const user = await em.findOneBy(UserEntity, { id: userId });
  if (!user) throw notFound('User not found');
  for (const field of ['username', 'email'] as const) {
    const value = edits[field];
    if (value !== undefined && value !== user[field]) {
      const taken = await em.existsBy(UserEntity, { [field]: value, id: Not(userId) });
      if (taken) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
    }
  }
  const changes: Partial<User> = { updatedAt: new Date() };
  if (edits.username !== undefined) changes.username = edits.username;
  if (edits.email !== undefined) changes.email = edits.email;
  if (edits.displayName !== undefined) changes.displayName = edits.displayName;
  if (edits.bio !== undefined) changes.bio = edits.bio;
  if (edits.location !== undefined) changes.location = edits.location;
  if (edits.showPresence !== undefined) changes.showPresence = edits.showPresence;
  if (edits.passwordHash) changes.passwordHash = edits.passwordHash;
  await em.update(UserEntity, { id: userId }, changes);
  if (changes.email !== undefined && changes.email !== user.email)
    await enqueueAlert(em, { userId, kind: 'email_changed', payload: { previousEmail: user.email } });
  return { ...user, ...changes };
}

/**
 * A new password, or an email other than the user's, changes how they sign in and needs
 * `currentPassword` (a session alone must not take the account): missing → 400, wrong → 403 with the
 * text account deletion uses. `attempt` (a rate limit) runs before each password is checked.
 */
export async function confirmSignInChange(
  db: Database,
  userId: string,
  edits: { email?: string; password?: string; currentPassword?: string },
  attempt: () => Promise<void>,
): Promise<void> {
  if (edits.password === undefined && edits.email === undefined) return;
  const user = await db.manager.findOne(UserEntity, { where: { id: userId }, select: { id: true, email: true, passwordHash: true } });
  if (!user) throw notFound('User not found');
  if (edits.password === undefined && edits.email === user.email) return;
  if (!edits.currentPassword) throw badRequest(CURRENT_PASSWORD_REQUIRED, 'current_password_required');
  await attempt();
  if (!(await verifyPassword(user.passwordHash, edits.currentPassword))) throw new AppError(403, 'wrong_password', ACCOUNT_PASSWORD_WRONG);
}

/** Runs an edit's transaction; a username or email taken by a racing edit is the same 400 as a taken one. */
export async function editing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
    throw err;
  }
}

/** Saves the owner's profile edits in one transaction (a new password goes through `changePassword`). */
export function updateUser(db: Database, userId: string, edits: UserEdits): Promise<User> {
  return editing(() => db.transaction((em) => applyUserEdits(em, userId, edits)));
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
