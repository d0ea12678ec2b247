import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import type { Deps } from '../deps.js';
import { badRequest } from '../errors.js';
import { UserEntity, type User } from '../users/entity.js';
import { RESET_LINK_INVALID } from '../../contract/texts.js';
import { hashPassword } from '../users/passwords.js';
import { PasswordResetEntity } from './entity.js';
import { revokeUserSessions } from './session.js';
import { enqueueAlert } from '../alerts/outbox.js';

/** How long an emailed reset link works. */
export const RESET_TTL_MINUTES = 30;
/** Reset emails one address may be sent per window (on top of the per-client limit of the route). */
export const RESET_EMAILS_PER_ADDRESS = 3;
export const RESET_EMAIL_WINDOW_SECONDS = 15 * 60;

/** What is stored of a token: its hex SHA-256. The token itself is only ever in the email. */
export const hashResetToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** The page a reset link opens. */
export const resetLink = (publicUrl: string, token: string) => `${publicUrl}/reset-password/${token}`;

/**
 * Stores a new reset for the user (voiding their older ones) and answers its token: 32 random
 * bytes, base64url. Only the token's hash is written.
 */
export async function createReset(em: EntityManager, userId: string, now: Date): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await voidResets(em, userId, now);
  await em.insert(PasswordResetEntity, {
    id: crypto.randomUUID(),
    userId,
    tokenHash: hashResetToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TTL_MINUTES * 60_000),
    usedAt: null,
  });
  return token;
}

async function voidResets(em: EntityManager, userId: string, now: Date): Promise<void> {
  await em
    .createQueryBuilder()
    .update(PasswordResetEntity)
    .set({ usedAt: now })
    .where('user_id = :userId AND used_at IS NULL', { userId })
    .execute();
}

function resetEmail(publicUrl: string, token: string) {
  const link = resetLink(publicUrl, token);
  const text = [
    'Someone (we hope you) asked to reset the password of the Giftlink account that uses this email address.',
    '',
    `Set a new password here. The link works once, for ${RESET_TTL_MINUTES} minutes:`,
    link,
    '',
    "If you didn't ask, ignore this email: your password stays as it is.",
  ].join('\n');
  // The link is our PUBLIC_URL and a base64url token: nothing in it needs escaping.
  const html = `<p>Someone (we hope you) asked to reset the password of the Giftlink account that uses this email address.</p>
<p><a href="${link}">Set a new password</a>. The link works once, for ${RESET_TTL_MINUTES} minutes.</p>
<p>If you didn't ask, ignore this email: your password stays as it is.</p>`;
  return { subject: 'Reset your Giftlink password', text, html };
}

/**
 * The work behind POST /api/auth/forgot-password, run after the answer has gone (the answer is the
 * same, and as quick, whether the address has an account or not): for an account with that
 * email, a new reset is stored and its link emailed. Failures are logged, never answered.
 */
export async function sendResetLink(deps: Pick<Deps, 'db' | 'mailer' | 'config' | 'log' | 'clock'>, email: string): Promise<void> {
  try {
    const user = await deps.db.manager.findOneBy(UserEntity, { email });
    if (!user) return;
    const token = await deps.db.transaction((em) => createReset(em, user.id, deps.clock()));
    await deps.mailer.send({ to: user.email, ...resetEmail(deps.config.publicUrl, token) });
  } catch (err) {
    deps.log.error({ err }, 'sending a password reset link failed');
  }
}

/**
 * POST /api/auth/reset-password: a live reset (unknown, used, voided or expired → 400
 * RESET_LINK_INVALID) sets the password, is used up with the user's other resets, and ends every
 * session of the user; once that has committed, every socket of theirs closes, on every process.
 */
export async function resetPassword(
  deps: Pick<Deps, 'db' | 'realtime' | 'clock' | 'config'>,
  token: string,
  password: string,
): Promise<User> {
  const passwordHash = await hashPassword(password, deps.config.passwordHash);
  const now = deps.clock();
  const user = await deps.db.transaction(async (em) => {
    // Used up by a conditional update: of two requests racing with one token, one wins.
    const used = await em
      .createQueryBuilder()
      .update(PasswordResetEntity)
      .set({ usedAt: now })
      .where('token_hash = :tokenHash AND used_at IS NULL AND expires_at > :now', {
        tokenHash: hashResetToken(token),
        now: dateParam(em, now),
      })
      .execute();
    if (used.affected !== 1) throw badRequest(RESET_LINK_INVALID, 'invalid_reset_link');
    const reset = await em.findOneByOrFail(PasswordResetEntity, { tokenHash: hashResetToken(token) });
    const found = await em.findOneBy(UserEntity, { id: reset.userId });
    if (!found) throw badRequest(RESET_LINK_INVALID, 'invalid_reset_link');
    await em.update(UserEntity, { id: found.id }, { passwordHash });
    await voidResets(em, found.id, now);
    await revokeUserSessions(em, found.id);
    await enqueueAlert(em, { userId: found.id, kind: 'password_changed' });
    return found;
  });
  await deps.realtime.endSessions(user.id, () => true);
  return user;
}
