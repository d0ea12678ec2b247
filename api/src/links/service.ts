import type { EntityManager } from 'typeorm';
import type { Database } from '../db/index.js';
import { AppError, forbidden, gone, notFound } from '../errors.js';
import { UserEntity, type User } from '../users/entity.js';
import { LinkEntity, LinkResponseEntity, LinkVisitorEntity, type Link } from './entity.js';
import { visitorBreakdown } from './breakdown.js';
import { entitled } from '../subscriptions/policy.js';
import { canSeeLinkMetrics, canSeeProfileLink, canSeeVisitorBreakdown } from './policy.js';
import { presentLink } from './presenter.js';
import { LINK_GONE, LINK_NOT_FOUND } from '../../contract/texts.js';
import { LINK_PAGE_SIZE } from '../../contract/limits.js';
import { type LinkMetricsView, type LinkView } from '../../contract/links.js';
import type { ViewCounter, Visit } from './views.js';

/** Whether the link can still be used: active, not expired, with a use left. */
export const isOpen = (link: Link, now: Date) => link.status === 'active' && link.expiresAt > now && link.remainingQuantity > 0;

/** The moment a creator's link time is read at: a pause stops it where it began. */
export const linkTime = (creator: Pick<User, 'giftsPausedAt'>, now = new Date()) => creator.giftsPausedAt ?? now;

/** The creator a link path names (`/links/{username}`); 404 when there is no such user. */
export async function findCreator(db: Database, username: string): Promise<User> {
  const creator = await db.manager.findOneBy(UserEntity, { username });
  if (!creator) throw notFound(LINK_NOT_FOUND);
  return creator;
}

/** The creator's newest link: 404 when they never made one, 410 when it is no longer open. */
export async function currentLink(em: EntityManager, creatorId: string, now = new Date()): Promise<Link> {
  const link = await em.findOne(LinkEntity, { where: { creatorId }, order: { createdAt: 'DESC' } });
  if (!link) throw notFound(LINK_NOT_FOUND);
  if (!isOpen(link, now)) throw gone(LINK_GONE);
  return link;
}

/**
 * The metrics its creator sees: counts, and for a subscribed creator (`canSeeVisitorBreakdown`)
 * the breakdown, merged until no number counts fewer than 5 (links/breakdown.ts). Who visited and when stays on
 * the server.
 */
export async function metricsFor(db: Database, link: Link, viewer: User | undefined): Promise<LinkMetricsView> {
  const visitorCount = await db.manager.countBy(LinkVisitorEntity, { linkId: link.id });
  const metrics = { views: link.views, visitorCount };
  return canSeeVisitorBreakdown(viewer && entitled(viewer, new Date()), link)
    ? { ...metrics, breakdown: await visitorBreakdown(db, link) }
    : metrics;
}

/**
 * A visitor opens the creator's open link. The view counts at most once per visitor per hour
 * (links/views.ts); a repeat reads only, and writes nothing.
 */
async function viewLink(db: Database, views: ViewCounter, creator: User, viewer: User | undefined, visit: Visit): Promise<Link> {
  const now = new Date();
  const creatorId = creator.id;
  const seen = await currentLink(db.manager, creatorId, linkTime(creator, now));
  if (await views.seenRecently(db.manager, seen.id, views.visitorKey(seen.id, viewer, visit), now)) return seen;
  // An address whose budget of new anonymous visitors is spent writes nothing.
  if (!viewer && !(await views.anonymousBudgetLeft(seen.id, visit.address))) return seen;
  try {
    return await db.transaction(async (em) => {
      const found = await currentLink(em, creatorId, linkTime(creator, now));
      if (!(await views.record(em, found.id, views.visitorKey(found.id, viewer, visit), viewer?.id ?? null, now, visit))) return found;
      // The view counts: an anonymous one spends from its address's budget, or is not recorded.
      if (!viewer && !(await views.admitAnonymous(found.id, visit.address))) throw new NotAdmitted();
      await em.increment(LinkEntity, { id: found.id }, 'views', 1);
      return { ...found, views: found.views + 1 };
    });
  } catch (err) {
    if (err instanceof NotAdmitted) return seen;
    throw err;
  }
}

/** Rolls back a view whose address has no budget left for new anonymous visitors. */
class NotAdmitted extends Error {}

/**
 * Opens a creator's link page: counts the view at most once per visitor per hour (the user, else
 * the browser session, else the client address) and answers the link; its creator also gets the
 * metrics. With `countView` false (a crawler or link unfurler) it only reads: no view, no visitor.
 */
export async function openLink(
  db: Database,
  viewer: User | undefined,
  creatorUsername: string,
  visit: Visit,
  views: ViewCounter,
  { countView = true }: { countView?: boolean } = {},
): Promise<LinkView> {
  const creator = await findCreator(db, creatorUsername);
  const isOwner = canSeeLinkMetrics(viewer, { creatorId: creator.id });
  const link = isOwner
    ? await db.transaction(async (em) => {
        // The creator keeps seeing their newest link and its metrics after it is used up or expired.
        const own = await em.findOne(LinkEntity, { where: { creatorId: creator.id }, order: { createdAt: 'DESC' } });
        if (!own) throw notFound(LINK_NOT_FOUND);
        return own;
      })
    : countView
      ? await viewLink(db, views, creator, viewer, visit)
      : await currentLink(db.manager, creator.id, linkTime(creator));
  const view = presentLink(link, creator, isOwner ? await metricsFor(db, link, viewer) : undefined);
  return { ...view, creatorGiftsPaused: creator.giftsPausedAt !== null };
}

/** Whether the user already used the link (by id, or the creator's current link). */
export async function hasResponded(db: Database, user: User, query: { linkId?: string; creatorUsername?: string }): Promise<boolean> {
  let linkId = query.linkId;
  if (!linkId && query.creatorUsername) {
    const creator = await db.manager.findOneBy(UserEntity, { username: query.creatorUsername.toLowerCase() });
    if (!creator) return false;
    const link = await db.manager.findOne(LinkEntity, { where: { creatorId: creator.id }, order: { createdAt: 'DESC' } });
    linkId = link?.id;
  }
  if (!linkId) return false;
  return db.manager.existsBy(LinkResponseEntity, { linkId, responderId: user.id });
}

/** The second call of the old two-step give: confirms a give already made (nothing moves). */
export async function confirmGive(db: Database, giver: User, postId: string, giveId: string): Promise<{ ok: true }> {
  const response = await db.manager.findOneBy(LinkResponseEntity, { id: giveId, linkId: postId });
  if (!response || response.responderId !== giver.id || response.kind !== 'give')
    throw new AppError(404, 'not_found', 'Failed to update post and balance');
  return { ok: true };
}

/**
 * The feed: open links, newest first, 25 a page, with their creators' names and badges, in one
 * query (idx_links_feed). The answer is the same for every viewer ('You are' is the client's call,
 * renderer/src/linkText.ts), so it carries an ETag (links/routes.ts).
 */
async function findOwner(db: Database, username: string): Promise<User> {
  const owner = await db.manager.findOneBy(UserEntity, { username });
  if (!owner) throw notFound('User not found');
  return owner;
}

/** A user's links, for themselves or a subscriber (`canSeeProfileLink`); anyone else is told to subscribe. */
export async function listProfileLinks(db: Database, viewer: User, username: string, page: number): Promise<LinkView[]> {
  const owner = await findOwner(db, username);
  if (!canSeeProfileLink(entitled(viewer, new Date()), owner)) throw forbidden("Subscribe to see this user's link");
  const links = await db.manager.find(LinkEntity, {
    where: { creatorId: owner.id },
    order: { createdAt: 'DESC' },
    skip: (page - 1) * LINK_PAGE_SIZE,
    take: LINK_PAGE_SIZE,
  });
  return links.map((l) => presentLink(l, owner));
}

export async function countActiveLinks(db: Database, username: string): Promise<number> {
  const owner = await findOwner(db, username);
  const links = await db.manager.findBy(LinkEntity, { creatorId: owner.id, status: 'active' });
  const now = new Date();
  return links.filter((l) => isOpen(l, now)).length;
}
