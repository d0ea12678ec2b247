import { z } from 'zod';
import { DAY_GROUPINGS, DEVICE_GROUPS, PAIR_GROUPINGS, SIGNED_IN_GROUPS, SOURCE_GROUPINGS, SOURCE_GROUPS } from './analytics.js';
import { itemIdSchema } from './catalog.js';
import { count, dollars, isoTime, usernameRef } from './common.js';
import { GiftNote } from './conversations.js';
import { MAX_LINK_QUANTITY } from './limits.js';
import { INCOMPLETE_LINK, QUANTITY_REQUIRED } from './texts.js';
import { amountSchema, giftAmountSchema } from './wallet.js';

const quantitySchema = z.unknown().transform((value, ctx): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_LINK_QUANTITY) {
    ctx.addIssue({ code: 'custom', message: QUANTITY_REQUIRED });
    return z.NEVER;
  }
  return n;
});

export const LinkDetailsInput = z.object({
  giveorreceive: z.enum(['give', 'receive'], { error: INCOMPLETE_LINK }),
  type: z.enum(['currency', 'item'], { error: INCOMPLETE_LINK }),
  amount: amountSchema.optional(),
  initialQuantity: quantitySchema.optional(),
  quantity: quantitySchema.optional(),
  itemId: itemIdSchema.optional(),
});

/** POST /links/create. */
export const CreateLinkBody = z.object({
  creatorUserId: z.string().max(64).optional(),
  creatorUsername: z.string().max(40).optional(),
  details: LinkDetailsInput,
});
export type CreateLinkRequest = z.input<typeof CreateLinkBody>;

export const CreatorParams = z.object({ linkCreatorUsername: usernameRef });

/** POST /links/{linkCreatorUsername}: opening a link page. */
export const OpenLinkBody = z.object({
  /** A random id the browser keeps, so anonymous visitors are counted once. */
  sessionId: z.string().max(64).optional(),
  /** Where the visitor came from: the page's `utm_source`, else the referrer (analytics `linkPageSource`). */
  source: z.string().max(200).optional(),
  currentUser: z.unknown().optional(),
});

/** GET /api/user-respond. */
export const RespondedQuery = z.object({
  linkId: z.string().max(64).optional(),
  creatorUsername: z.string().max(40).optional(),
  linkResponderUsername: z.string().max(40).optional(),
});

/** PUT /api/accept-link. */
export const AcceptLinkBody = z.object({
  linkCreatorUsername: usernameRef,
  linkResponderUsername: z.string().max(40).optional(),
  lastMessage: z.string().max(500).optional(),
  /** The responder's note to the link's creator, in their named thread (conversations.ts `GiftNote`). */
  note: GiftNote,
});

/** POST /statuses/api/gives. */
export const GiveBody = z.object({
  postId: z.string().min(1).max(64),
  type: z.enum(['currency', 'item']).optional(),
  amount: giftAmountSchema.optional(),
  /** The giver's note, from the persona the gift comes from (conversations.ts `GiftNote`). */
  note: GiftNote,
  /** A card authorisation from POST /api/wallet/card-deposit `for` this gift: credited and captured where the gift lands. */
  authorisation: z.string().min(1).max(64).optional(),
});

/** PUT /statuses/api/statuses/{postId}/give. */
export const ConfirmGiveParams = z.object({ postId: z.string().min(1).max(64) });
export const ConfirmGiveBody = z.object({
  giveId: z.string().min(1).max(64),
  giveUserId: z.string().max(64).optional(),
  type: z.string().max(16).optional(),
});

/** A link's details as answers show them. */
export const LinkDetailsView = z.object({
  type: z.enum(['currency', 'item']),
  giveorreceive: z.enum(['give', 'receive']),
  /** Dollars: one use of a give link, the goal of a receive link (currency), or the item's total. */
  amount: dollars,
  /**
   * Give currency links: how many people can use it. Receive links have no quantity: 1, and
   * `remainingQuantity` reads 1 while the link is open and 0 once it is filled (or given, for an item).
   */
  initialQuantity: count,
  remainingQuantity: count,
  title: z.string().nullable(),
  photo: z.string().nullable(),
  itemId: z.string().nullable(),
  totalCost: dollars,
});
export type LinkDetailsView = z.infer<typeof LinkDetailsView>;

/** A visitor count as a subscribed owner sees it: null when fewer than 5 visitors ('fewer than 5'). */
const SuppressedCount = count.nullable();
export type SuppressedCount = z.infer<typeof SuppressedCount>;
const cells = <G extends readonly [string, ...string[]]>(groups: G) =>
  z.array(z.object({ group: z.enum(groups), visitors: SuppressedCount }));

/**
 * Aggregates of a link's visitors, for a subscribed owner (`canSeeVisitorBreakdown`): views and
 * visitors per UTC day, by source, signed in or not, phone or desktop. Each part is merged (days
 * into weeks, then the whole period; sources into social, direct and other, then all) until every
 * row counts 0 or at least 5 visitors and so do the visitors its rows leave out; `grouping` says
 * how far. Only the whole part can still be under 5: then it is null. Only visitors first seen
 * before the current hour are grouped, so a visit just before a gift does not move a row at once.
 * Never an identity, never a time finer than a day.
 */
export const VisitorBreakdownView = z.object({
  /** From `day` to `lastDay` (UTC, inclusive): one day, a week or the whole period. */
  days: z.array(z.object({ day: z.iso.date(), lastDay: z.iso.date(), views: SuppressedCount, visitors: SuppressedCount })),
  sources: cells(SOURCE_GROUPS),
  signedIn: cells(SIGNED_IN_GROUPS),
  devices: cells(DEVICE_GROUPS),
  grouping: z.object({
    days: z.enum(DAY_GROUPINGS),
    sources: z.enum(SOURCE_GROUPINGS),
    signedIn: z.enum(PAIR_GROUPINGS),
    devices: z.enum(PAIR_GROUPINGS),
  }),
  /** Rows below this many visitors are merged, or null. */
  minimum: count,
});
export type VisitorBreakdownView = z.infer<typeof VisitorBreakdownView>;

/**
 * The owner's metrics: counts, and for a subscribed owner the suppressed `breakdown`. No visitor
 * identity and no visit time ever leaves the server: a named visitor seen just before a gift
 * would be its giver.
 */
export const LinkMetricsView = z.object({ views: count, visitorCount: count, breakdown: VisitorBreakdownView.optional() });
export type LinkMetricsView = z.infer<typeof LinkMetricsView>;

/**
 * A group gift's progress (receive currency links): gifts add up to `goal`, each giver once, and
 * the gift that reaches it closes the link. Counts only, for everyone who can see the link.
 */
export const LinkProgressView = z.object({
  /** Dollars given so far. */
  raised: dollars,
  /** Dollars asked for in all (the link's `amount`). */
  goal: dollars,
  /** Dollars still to give: `goal - raised`. */
  left: dollars,
  /** How many gifts (one per giver). */
  gifts: count,
});
export type LinkProgressView = z.infer<typeof LinkProgressView>;

/** A link as GET /links/all, /links/profile/{username}, POST /links/create and /links/{username} answer it. */
export const LinkView = z.object({
  _id: z.string(),
  id: z.string(),
  creatorUsername: z.string(),
  creatorUserId: z.string(),
  /** The creator's verified badge: whether their subscription benefits are on (the creator is always named). */
  creatorIsSubscribed: z.boolean(),
  createdAt: isoTime,
  expiresAt: isoTime,
  status: z.enum(['active', 'used', 'expired']),
  details: LinkDetailsView,
  /** Receive currency links only: how far the gifts are toward the goal. */
  progress: LinkProgressView.optional(),
  /** Only for the link's creator. */
  metrics: LinkMetricsView.optional(),
  /** Only on the link page (`POST /links/{username}`): the creator has paused gifts. */
  creatorGiftsPaused: z.boolean().optional(),
});
export type LinkView = z.infer<typeof LinkView>;

/** POST /links/{linkCreatorUsername}. */
export const OpenLinkResponse = z.object({ updatedLink: LinkView });
export type OpenLinkResponse = z.infer<typeof OpenLinkResponse>;

/** GET /links/active-links/{username}. */
export const ActiveLinksResponse = z.object({ totalLinks: count });
export type ActiveLinksResponse = z.infer<typeof ActiveLinksResponse>;

/** GET /api/user-respond. */
export const RespondedResponse = z.object({ responded: z.boolean() });
export type RespondedResponse = z.infer<typeof RespondedResponse>;

/** PUT /api/accept-link. */
export const AcceptLinkResponse = z.object({ conversationId: z.string(), newMessage: z.object({ _id: z.string(), text: z.string() }) });
export type AcceptLinkResponse = z.infer<typeof AcceptLinkResponse>;

/** POST /statuses/api/gives. */
export const GiveResponse = z.object({
  give: z.object({ _id: z.string(), type: z.enum(['currency', 'item']), amount: dollars, postId: z.string() }),
  conversationId: z.string(),
});
export type GiveResponse = z.infer<typeof GiveResponse>;

/** DELETE /api/links/{linkId}: a link's id. */
export const CancelLinkParams = z.object({ linkId: z.uuid() });

/** DELETE /api/links/{linkId}: the link as it is now (closed) and what came back to the owner's balance. */
export const CancelLinkResponse = z.object({ link: LinkView, refunded: dollars });
export type CancelLinkResponse = z.infer<typeof CancelLinkResponse>;

/** PUT /statuses/api/statuses/{postId}/give. */
export const ConfirmGiveResponse = z.object({ ok: z.literal(true) });
export type ConfirmGiveResponse = z.infer<typeof ConfirmGiveResponse>;
