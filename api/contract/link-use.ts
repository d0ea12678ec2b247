/**
 * What one use does to a link, written once for the API and the renderer (its optimistic update).
 * Group gifts: a receive currency link asks for a total (`totalCostCents`, its `amount` on the
 * wire) and stays open until gifts from any number of givers, each once, reach it or it expires.
 * It has no quantity: `remainingQuantity` is 1 while open, 0 once filled. Amounts are cents.
 * Plain values, safe in any bundle.
 */
import { isValidAmountCents } from './money.js';

/** The part of a link one use reads and moves (the server's `Link` has these fields). */
export interface LinkCounts {
  type: 'currency' | 'item';
  giveOrReceive: 'give' | 'receive';
  status: 'active' | 'used' | 'expired';
  remainingQuantity: number;
  /** A group gift's goal. */
  totalCostCents: number;
  /** What a group gift's gifts add up to so far. */
  raisedCents: number;
  /** How many times the link was used. */
  gifts: number;
}

/** A receive currency link: a group gift, open until the gifts reach its goal (`totalCostCents`). */
export const isGroupGift = (link: Pick<LinkCounts, 'type' | 'giveOrReceive'>): boolean =>
  link.type === 'currency' && link.giveOrReceive === 'receive';

/** What a group gift still asks for. */
export const leftToGive = (link: Pick<LinkCounts, 'totalCostCents' | 'raisedCents'>): number =>
  Math.max(0, link.totalCostCents - link.raisedCents);

/**
 * Whether a give may be of `cents`: an amount the product allows (at least $1, under $1,000,000),
 * or less than $1 only when it is exactly what a group gift has left (`leftCents`; null for a
 * link that is not a group gift).
 */
export function isGiveAmountCents(cents: number | undefined, leftCents: number | null): cents is number {
  if (cents === undefined) return false;
  return isValidAmountCents(cents) || (leftCents !== null && cents > 0 && cents === leftCents);
}

/**
 * The counts after one use of `amountCents` of a link still within its time, or undefined when
 * the link cannot take it (not active, no quantity left, or more than a group gift has left). A
 * group gift's use adds its amount and the one that reaches the goal leaves no quantity; any
 * other use takes one from the quantity. The use that leaves no quantity closes the link (`used`).
 * links/store.ts's TAKE_USE and ADD_TO_GROUP_GIFT do the same in SQL (store.test.ts holds them equal).
 */
export function afterUse(
  link: LinkCounts,
  amountCents: number,
): Pick<LinkCounts, 'status' | 'remainingQuantity' | 'raisedCents' | 'gifts'> | undefined {
  if (link.status !== 'active') return undefined;
  let { raisedCents, remainingQuantity } = link;
  if (isGroupGift(link)) {
    raisedCents += amountCents;
    if (raisedCents > link.totalCostCents) return undefined;
    if (raisedCents >= link.totalCostCents) remainingQuantity = 0;
  } else {
    if (remainingQuantity <= 0) return undefined;
    remainingQuantity -= 1;
  }
  return { status: remainingQuantity === 0 ? 'used' : 'active', remainingQuantity, raisedCents, gifts: link.gifts + 1 };
}
