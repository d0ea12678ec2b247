import type { Deps } from '../deps.js';
import { AppError, badRequest, isUniqueViolation } from '../errors.js';
import { isSuspended } from '../users/policy.js';
import { ageGate } from './age.js';
import { ACCOUNT_SUSPENDED } from '../../contract/texts.js';
import { createInvite } from '../invites/service.js';
import { admitThroughLink, consumeInviteCode } from '../invites/join.js';
import { UserEntity, newUserRecord, type User } from '../users/entity.js';
import { releaseClosedUsernames } from '../users/release.js';
import { hashPassword, verifyPassword } from '../users/passwords.js';
import type { LoginBody, RegisterBody } from '../../contract/auth.js';
import type { z } from 'zod';

import { checkName } from '../text-filter.js';
import { DUPLICATE_ACCOUNT, INCORRECT_LOGIN, INVITE_INVALID as INVALID_INVITE, JOIN_UNAVAILABLE } from '../../contract/texts.js';

export { DUPLICATE_ACCOUNT, INVALID_INVITE };

/**
 * Creates the account and uses up its invite in one transaction (a code's: one invite, one account,
 * even when registrations race; or the `via` owner's shared link, within its daily limits). The new account gets
 * INVITES_PER_USER invites of its own.
 * The invite is checked first, so without a valid one the answer is the same whatever username
 * and email the body names (an invite is not an oracle for who has an account); a clash after
 * a valid invite rolls the transaction back and leaves the invite usable.
 * The age gate comes before all of it: a refusal reads nothing and writes nothing, so no invite's
 * owner can tell it from no attempt.
 */
export async function register(deps: Deps, input: z.output<typeof RegisterBody>): Promise<User> {
  const age = ageGate(input.dateOfBirth, deps.clock());
  const passwordHash = await hashPassword(input.password, deps.config.passwordHash);
  const user = newUserRecord({ username: input.username, email: input.email, passwordHash, ...age });

  try {
    await deps.db.transaction(async (em) => {
      // An invite code if one is given, else the `via` owner's shared link or wishlist.
      let recordJoin: ((newUserId: string) => Promise<void>) | null = null;
      if (input.inviteCode !== undefined) {
        if (!(await consumeInviteCode(em, deps.config, input.inviteCode, user.id))) throw badRequest(INVALID_INVITE, 'invalid_invite');
      } else {
        recordJoin = await admitThroughLink(em, deps.config, input.via ?? '', deps.clock());
        if (!recordJoin) throw badRequest(JOIN_UNAVAILABLE, 'invite_unavailable');
      }
      checkName(user.username);
      // A closed account's username is free 30 days after it closed; taken until then.
      await releaseClosedUsernames(em, deps.clock(), user.username);
      const clash = await em
        .createQueryBuilder(UserEntity, 'u')
        .where('u.username = :username OR u.email = :email', { username: user.username, email: user.email })
        .getExists();
      if (clash) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
      await em.insert(UserEntity, user);
      await recordJoin?.(user.id);
      for (let i = 0; i < deps.config.invitesPerUser; i++) await createInvite(em, user.id);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(DUPLICATE_ACCOUNT, 'duplicate_account');
    throw err;
  }
  return user;
}

/** A wrong email and a wrong password get the same answer, after the same work. */
export async function login(deps: Deps, input: z.output<typeof LoginBody>): Promise<User> {
  const user = await deps.db.manager.findOneBy(UserEntity, { email: input.email });
  const ok = await verifyPassword(user?.passwordHash, input.password, deps.config.passwordHash);
  if (!user || !ok) throw badRequest(INCORRECT_LOGIN, 'incorrect_login');
  // Told only to whoever knows the password (`npm run moderation -- suspend`).
  if (isSuspended(user)) throw new AppError(403, 'account_suspended', ACCOUNT_SUSPENDED);
  return user;
}
