/**
 * Delete my account. Confirmed with the password; refused while the account holds money
 * (account/policy.ts). Otherwise closed in one transaction: the named identity is erased (personal
 * fields, the email a unique tombstone, the password unusable; links closed, the wishlist and the
 * shipping address removed, unused invites revoked, the messages they typed in threads where they
 * are named read 'Deleted message', rows kept so every `seq` stays), every session ended. Their
 * anonymous personas are retired, not erased: an anonymous thread reads on exactly as before, so
 * its recipient cannot tell its giver closed an account (identity/identity.ts). The row itself
 * stays, with `closed_at`, so the ledger entries that point to it stay; its push subscriptions and
 * its visits to links as a signed-in visitor go. After commit: the sockets of every session close
 * on every process, the saved card and the customer are deleted at the payment provider, and the
 * pictures are deleted from storage. What is kept, and why: KEPT_AFTER_CLOSING (contract/texts.ts).
 */
import crypto from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import { ACCOUNT_PASSWORD_WRONG, DELETED_MESSAGE } from '../../contract/texts.js';
import { verifyPassword } from '../users/passwords.js';
import { revokeUserSessions } from '../auth/session.js';
import { replaceNamedMessages } from './store.js';
import type { Deps } from '../deps.js';
import { AppError, conflict, notFound } from '../errors.js';
import { InviteEntity } from '../invites/entity.js';
import { LinkEntity, LinkVisitorEntity } from '../links/entity.js';
import { PushSubscriptionEntity } from '../push/entity.js';
import { LedgerAccountEntity } from '../money/entity.js';
import { SYSTEM_UNCLAIMED, escrowAccount, transfer, userAccount } from '../money/ledger.js';
import { heldNowIn } from '../money/holds.js';
import { AddressEntity } from '../orders/entity.js';
import { removeImage } from '../uploads/service.js';
import { UserEntity, type User } from '../users/entity.js';
import { PaymentIntentEntity, type PaymentIntentStatus } from '../wallet/entity.js';
import { rowLockNoKey } from '../db/row-lock.js';
import { WishlistEntity, WishlistItemEntity } from '../wishlists/entity.js';
import { cannotClose } from './policy.js';
import { SubscriptionEntity } from '../subscriptions/entity.js';

/** A payment still under way: a card authorised for a gift, or captured after it, counts too. */
const UNFINISHED_PAYMENTS: PaymentIntentStatus[] = ['pending', 'authorised', 'releasing', 'landed'];

/** Stored in place of a closed account's password hash: no password verifies against it. */
export const CLOSED_PASSWORD_HASH = '!closed';

/** A unique email no one can sign in with (fits the 40-character column). */
const tombstoneEmail = () => `${crypto.randomUUID().replaceAll('-', '')}@closed`;

export const wrongPassword = () => new AppError(403, 'wrong_password', ACCOUNT_PASSWORD_WRONG);

/** What the user's give links still hold in escrow, together. */
async function escrowHeld(em: EntityManager, userId: string): Promise<number> {
  const links = await em.find(LinkEntity, { select: { id: true }, where: { creatorId: userId, giveOrReceive: 'give' } });
  if (links.length === 0) return 0;
  const accounts = await em.find(LedgerAccountEntity, { where: { key: In(links.map((l) => escrowAccount(l.id))) } });
  return accounts.reduce((sum, a) => sum + a.balanceCents, 0);
}

/** Whether the user's subscription would still charge: active and not cancelled at its period end, or past due. */
async function renewing(em: EntityManager, userId: string): Promise<boolean> {
  const sub = await em.findOneBy(SubscriptionEntity, { userId });
  return !!sub && ((sub.status === 'active' && !sub.cancelAtPeriodEnd) || sub.status === 'past_due');
}

/** Closes the account inside `em`'s transaction; answers the pictures to delete once it commits. */
async function closeIn(em: EntityManager, userId: string, now: Date): Promise<(string | null)[]> {
  // Locked first, as a deposit's start locks it: either the deposit waits and finds the account closed, or this sees its intent.
  const user = await em.findOne(UserEntity, { where: { id: userId }, ...rowLockNoKey(em) });
  if (!user || user.closedAt) throw notFound('User not found');
  // Money still on hold cannot be withdrawn yet; refusing the closing for it would tell an anonymous
  // gift's recipient who returned it to whom: it is kept for them, as a refund after closing is.
  const held = Math.min(user.balanceCents, await heldNowIn(em, userAccount(userId)));
  const refusal = cannotClose({
    balanceCents: user.balanceCents - held,
    escrowCents: await escrowHeld(em, userId),
    pendingPayments: await em.countBy(PaymentIntentEntity, { userId, status: In(UNFINISHED_PAYMENTS) }),
    renewingSubscription: await renewing(em, userId),
  });
  if (refusal) throw conflict(refusal.message, refusal.code);
  if (held > 0)
    await transfer(em, {
      from: userAccount(userId),
      to: SYSTEM_UNCLAIMED,
      amountCents: held,
      kind: 'refund',
      actorUserId: userId,
      reference: 'account closed',
    });

  // Conditional on a zero balance, so money that arrived since the check refuses the close instead.
  const closed = await em
    .createQueryBuilder()
    .update(UserEntity)
    .set({
      email: tombstoneEmail(),
      passwordHash: CLOSED_PASSWORD_HASH,
      displayName: '',
      bio: '',
      location: '',
      profilePicture: null,
      coverPicture: null,
      letVisitorsJoin: false,
      closedAt: now,
      updatedAt: now,
    })
    .where('id = :userId AND balance_cents = 0 AND closed_at IS NULL', { userId })
    .execute();
  if (closed.affected !== 1) {
    const latest = await em.findOneBy(UserEntity, { id: userId });
    const late = cannotClose({ balanceCents: latest?.balanceCents ?? 0, escrowCents: 0 });
    throw late ? conflict(late.message, late.code) : notFound('User not found');
  }

  await em
    .createQueryBuilder()
    .update(LinkEntity)
    .set({ status: 'expired', closedAt: now })
    .where("creator_id = :userId AND status = 'active'", { userId })
    .execute();
  await em.delete(WishlistItemEntity, { ownerId: userId });
  await em.delete(WishlistEntity, { ownerId: userId });
  await em.delete(AddressEntity, { userId });
  await em.delete(InviteEntity, { ownerId: userId, status: 'available' });
  await replaceNamedMessages(em, userId, DELETED_MESSAGE);
  await revokeUserSessions(em, userId);
  await em.delete(PushSubscriptionEntity, { userId });
  // Their visits to others' links, as a signed-in visitor; the links' counts of views stay.
  await em.delete(LinkVisitorEntity, { visitorKey: `u:${userId}` });
  return [user.profilePicture, user.coverPicture];
}

/** The saved card and the customer at the payment provider, once the closing has committed; a failure is logged, the closing stands. */
async function forgetAtProvider(deps: Deps, userId: string): Promise<void> {
  try {
    await deps.payments.removeCard(userId);
    await deps.payments.deleteCustomer(userId);
    await deps.db.transaction((em) => em.update(UserEntity, { id: userId }, { stripeCustomerId: null }));
  } catch (err) {
    deps.log.error({ err }, 'removing a closed account’s card and customer at the payment provider failed');
  }
}

/** Deletes the account of `user` (the session's user) after checking `password`. */
export async function closeAccount(deps: Deps, user: User, password: string): Promise<void> {
  if (!(await verifyPassword(user.passwordHash, password))) throw wrongPassword();
  const pictures = await deps.db.transaction((em) => closeIn(em, user.id, deps.clock()));
  await deps.realtime.endSessions(user.id, () => true);
  await forgetAtProvider(deps, user.id);
  for (const picture of pictures) {
    try {
      await removeImage(deps.config, picture);
    } catch (err) {
      deps.log.error({ err }, 'removing a closed account’s picture failed');
    }
  }
}
