import { z } from 'zod';
import { ItemIdParams } from '../catalog/schemas.js';
import { amountSchema } from '../wallet/schemas.js';

export const LINK_PAGE_SIZE = 25;
export const MAX_LINK_QUANTITY = 1000;

export const QUANTITY_REQUIRED = 'Please enter how many times this link can be used';
export const INCOMPLETE_LINK = 'Choose give or receive, currency or item, and an amount or an item.';
export const LINK_NOT_FOUND = 'Link not found';
export const LINK_GONE = 'Link is no longer available.';
export const ALREADY_USED = "you can't use this link more than once";
export const OWN_POST = 'You cannot give to your own post!';
export const ONE_ACTIVE_LINK = 'You already have an active link. You can hold one active link at a time.';

const quantitySchema = z.unknown().transform((value, ctx): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_LINK_QUANTITY) {
    ctx.addIssue({ code: 'custom', message: QUANTITY_REQUIRED });
    return z.NEVER;
  }
  return n;
});

const itemIdSchema = ItemIdParams.shape.itemId;

export const LinkDetailsInput = z.object({
  giveorreceive: z.enum(['give', 'receive'], { error: INCOMPLETE_LINK }),
  type: z.enum(['currency', 'item'], { error: INCOMPLETE_LINK }),
  amount: amountSchema.optional(),
  initialQuantity: quantitySchema.optional(),
  quantity: quantitySchema.optional(),
  itemId: itemIdSchema.optional(),
});

export const CreateLinkBody = z.object({
  creatorUserId: z.string().max(64).optional(),
  creatorUsername: z.string().max(40).optional(),
  details: LinkDetailsInput,
});
export type CreateLinkRequest = z.input<typeof CreateLinkBody>;

export const PageQuery = z.object({
  page: z.coerce.number({ error: 'page must be a whole number from 1' }).int().min(1).max(100_000).default(1),
});

export const CreatorParams = z.object({ linkCreatorUsername: z.string().trim().min(1).max(40).transform((s) => s.toLowerCase()) });
export const UsernameParams = z.object({ username: z.string().trim().min(1).max(40).transform((s) => s.toLowerCase()) });

export const OpenLinkBody = z.object({
  /** A random id the browser keeps, so anonymous visitors are counted once. */
  sessionId: z.string().max(64).optional(),
  currentUser: z.unknown().optional(),
});

export const RespondedQuery = z.object({
  linkId: z.string().max(64).optional(),
  creatorUsername: z.string().max(40).optional(),
  linkResponderUsername: z.string().max(40).optional(),
});

export const AcceptLinkBody = z.object({
  linkCreatorUsername: z.string().trim().min(1).max(40).transform((s) => s.toLowerCase()),
  linkResponderUsername: z.string().max(40).optional(),
  lastMessage: z.string().max(500).optional(),
});

export const GiveBody = z.object({
  postId: z.string().min(1).max(64),
  type: z.enum(['currency', 'item']).optional(),
  amount: amountSchema.optional(),
});

export const ConfirmGiveParams = z.object({ postId: z.string().min(1).max(64) });
export const ConfirmGiveBody = z.object({
  giveId: z.string().min(1).max(64),
  giveUserId: z.string().max(64).optional(),
  type: z.string().max(16).optional(),
});

export interface LinkDetailsView {
  type: 'currency' | 'item';
  giveorreceive: 'give' | 'receive';
  /** Dollars: one use (currency) or the item's total. */
  amount: number;
  initialQuantity: number;
  remainingQuantity: number;
  title: string | null;
  photo: string | null;
  itemId: string | null;
  totalCost: number;
}

/**
 * The owner's metrics: counts only. No visitor identity and no visit time ever leaves the server:
 * a named visitor seen just before a gift would be its giver.
 */
export interface LinkMetricsView {
  views: number;
  visitorCount: number;
}

export interface LinkView {
  _id: string;
  id: string;
  creatorUsername: string;
  creatorUserId: string;
  createdAt: string;
  expiresAt: string;
  status: 'active' | 'used' | 'expired';
  details: LinkDetailsView;
  /** Only for the link's creator. */
  metrics?: LinkMetricsView;
}

export interface AcceptLinkResponse {
  conversationId: string;
  newMessage: { _id: string; text: string };
}

export interface GiveResponse {
  give: { _id: string; type: 'currency' | 'item'; amount: number; postId: string };
  conversationId: string;
}
