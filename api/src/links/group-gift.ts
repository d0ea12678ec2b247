import type { Link } from './entity.js';

/**
 * Group gifts: a receive currency link asks for a total (its `amount`, kept as `totalCostCents`)
 * and stays open until gifts from any number of givers, each once, reach it or it expires. It has
 * no quantity: `initialQuantity` is 1 and `remainingQuantity` 1 while open, 0 once filled.
 */

/** A receive currency link: a group gift, open until the gifts reach its goal (`totalCostCents`). */
export const isGroupGift = (link: Pick<Link, 'type' | 'giveOrReceive'>) => link.type === 'currency' && link.giveOrReceive === 'receive';

/** What a group gift still asks for, in cents. */
export const leftToGive = (link: Pick<Link, 'totalCostCents' | 'raisedCents'>) => Math.max(0, link.totalCostCents - link.raisedCents);
