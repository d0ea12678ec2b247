import { z } from 'zod';
import type { VisitorDevice, VisitorSource } from './analytics.js';
import { itemIdSchema } from './catalog.js';
import { usernameRef } from './common.js';
import { MAX_AMOUNT_CENTS_EXCLUSIVE, MAX_LINK_QUANTITY } from './limits.js';
import { dollarsToCents } from './money.js';
import { INCOMPLETE_LINK, INVALID_AMOUNT, QUANTITY_REQUIRED } from './texts.js';
import { amountSchema } from './wallet.js';

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
});

/**
 * A gift's amount in cents: any positive amount under $1,000,000 with at most two decimals. The
 * API takes less than $1 only when it is exactly what a group gift has left.
 */
const giftAmountSchema = z.unknown().transform((value, ctx): number => {
  const cents = dollarsToCents(value);
  if (cents === undefined || cents < 1 || cents >= MAX_AMOUNT_CENTS_EXCLUSIVE) {
    ctx.addIssue({ code: 'custom', message: INVALID_AMOUNT });
    return z.NEVER;
  }
  return cents;
});

/** POST /statuses/api/gives. */
export const GiveBody = z.object({
  postId: z.string().min(1).max(64),
  type: z.enum(['currency', 'item']).optional(),
  amount: giftAmountSchema.optional(),
});

/** PUT /statuses/api/statuses/{postId}/give. */
export const ConfirmGiveParams = z.object({ postId: z.string().min(1).max(64) });
export const ConfirmGiveBody = z.object({
  giveId: z.string().min(1).max(64),
  giveUserId: z.string().max(64).optional(),
  type: z.string().max(16).optional(),
});

export interface LinkDetailsView {
  type: 'currency' | 'item';
  giveorreceive: 'give' | 'receive';
  /** Dollars: one use of a give link, the goal of a receive link (currency), or the item's total. */
  amount: number;
  /**
   * Give currency links: how many people can use it. Receive links have no quantity: 1, and
   * `remainingQuantity` reads 1 while the link is open and 0 once it is filled (or given, for an item).
   */
  initialQuantity: number;
  remainingQuantity: number;
  title: string | null;
  photo: string | null;
  itemId: string | null;
  totalCost: number;
}

/** A visitor count as a subscribed owner sees it: null when fewer than 5 visitors ('fewer than 5'). */
export type SuppressedCount = number | null;

/**
 * Aggregates of a link's visitors, for a subscribed owner (`canSeeVisitorBreakdown`): per UTC
 * day, by source, signed in or not, phone or desktop. Every cell below 5 visitors is null, and so
 * is one more cell of a group where a single hidden cell could be worked out from the total. Only
 * visitors first seen before the current hour are grouped, so a visit just before a gift does not
 * move a cell at once. Never an identity, never a time finer than a day.
 */
export interface VisitorBreakdownView {
  days: { day: string; views: SuppressedCount; visitors: SuppressedCount }[];
  sources: Record<VisitorSource, SuppressedCount>;
  signedIn: { loggedIn: SuppressedCount; anonymous: SuppressedCount };
  devices: Record<VisitorDevice, SuppressedCount>;
  /** Cells below this many visitors are null. */
  minimum: number;
}

/**
 * The owner's metrics: counts, and for a subscribed owner the suppressed `breakdown`. No visitor
 * identity and no visit time ever leaves the server: a named visitor seen just before a gift
 * would be its giver.
 */
export interface LinkMetricsView {
  views: number;
  visitorCount: number;
  breakdown?: VisitorBreakdownView;
}

/**
 * A group gift's progress (receive currency links): gifts add up to `goal`, each giver once, and
 * the gift that reaches it closes the link. Counts only, for everyone who can see the link.
 */
export interface LinkProgressView {
  /** Dollars given so far. */
  raised: number;
  /** Dollars asked for in all (the link's `amount`). */
  goal: number;
  /** Dollars still to give: `goal - raised`. */
  left: number;
  /** How many gifts (one per giver). */
  gifts: number;
}

/** A link as GET /links/all, /links/profile/{username}, POST /links/create and /links/{username} answer it. */
export interface LinkView {
  _id: string;
  id: string;
  creatorUsername: string;
  creatorUserId: string;
  /** The creator's verified badge: whether their subscription benefits are on (the creator is always named). */
  creatorIsSubscribed: boolean;
  createdAt: string;
  expiresAt: string;
  status: 'active' | 'used' | 'expired';
  details: LinkDetailsView;
  /** Receive currency links only: how far the gifts are toward the goal. */
  progress?: LinkProgressView;
  /** Only for the link's creator. */
  metrics?: LinkMetricsView;
}

/** POST /links/{linkCreatorUsername}. */
export interface OpenLinkResponse {
  updatedLink: LinkView;
}

/** GET /links/active-links/{username}. */
export interface ActiveLinksResponse {
  totalLinks: number;
}

/** GET /api/user-respond. */
export interface RespondedResponse {
  responded: boolean;
}

/** PUT /api/accept-link. */
export interface AcceptLinkResponse {
  conversationId: string;
  newMessage: { _id: string; text: string };
}

/** POST /statuses/api/gives. */
export interface GiveResponse {
  give: { _id: string; type: 'currency' | 'item'; amount: number; postId: string };
  conversationId: string;
}

/** PUT /statuses/api/statuses/{postId}/give. */
export interface ConfirmGiveResponse {
  ok: true;
}
