import { EntitySchema } from 'typeorm';
import { centsColumn, dateColumn, idColumn, refColumn } from '../db/columns.js';

export type LinkType = 'currency' | 'item';
export type GiveOrReceive = 'give' | 'receive';
/** active: open to use; used: no quantity left; expired: its time ran out (escrow refunded). */
export type LinkStatus = 'active' | 'used' | 'expired';

export interface Link {
  id: string;
  creatorId: string;
  type: LinkType;
  giveOrReceive: GiveOrReceive;
  /** Currency: what one use gives or asks for. Item: the item's total (price + shipping). */
  amountCents: number;
  initialQuantity: number;
  remainingQuantity: number;
  title: string | null;
  photo: string | null;
  itemId: string | null;
  /** What the link costs its creator (give) or asks for in all (receive: a group gift's goal). */
  totalCostCents: number;
  /** Receive links: what the gifts add up to so far (never above `totalCostCents`). */
  raisedCents: number;
  /** How many times the link was used: gifts to a receive link, accepts of a give link. */
  gifts: number;
  status: LinkStatus;
  views: number;
  createdAt: Date;
  expiresAt: Date;
  closedAt: Date | null;
}

export const LinkEntity = new EntitySchema<Link>({
  name: 'Link',
  tableName: 'links',
  columns: {
    id: idColumn,
    creatorId: { ...refColumn(), name: 'creator_id' },
    type: { type: 'varchar', length: 16 },
    giveOrReceive: { type: 'varchar', length: 16, name: 'give_or_receive' },
    amountCents: centsColumn({ name: 'amount_cents' }),
    initialQuantity: { type: 'integer', name: 'initial_quantity' },
    remainingQuantity: { type: 'integer', name: 'remaining_quantity' },
    title: { type: 'varchar', length: 255, nullable: true },
    photo: { type: 'varchar', length: 2048, nullable: true },
    itemId: { type: 'varchar', length: 100, nullable: true, name: 'item_id' },
    totalCostCents: centsColumn({ name: 'total_cost_cents' }),
    raisedCents: centsColumn({ name: 'raised_cents' }),
    gifts: { type: 'integer', default: 0 },
    status: { type: 'varchar', length: 16, default: 'active' },
    views: { type: 'integer', default: 0 },
    createdAt: { ...dateColumn(), name: 'created_at' },
    expiresAt: { ...dateColumn(), name: 'expires_at' },
    closedAt: { ...dateColumn(true), name: 'closed_at' },
  },
});

/** Who opened a link: a user, an anonymous browser session, or a client address (links/views.ts). */
export interface LinkVisitor {
  id: string;
  linkId: string;
  /** `u:<userId>`, `s:<session UUID>` or `a:<keyed hash of the address>`: one row per visitor per link. */
  visitorKey: string;
  userId: string | null;
  createdAt: Date;
  /** When this visitor's view last counted: another one counts an hour later at the earliest. */
  countedAt: Date | null;
  /** Where it came from at its first visit (analytics `VisitorSource`); null when not told (Sec-GPC). */
  source: string | null;
  /** 'phone' or 'desktop' at its first visit, from the User-Agent; null when not told (Sec-GPC). */
  device: string | null;
}

export const LinkVisitorEntity = new EntitySchema<LinkVisitor>({
  name: 'LinkVisitor',
  tableName: 'link_visitors',
  columns: {
    id: idColumn,
    linkId: { ...refColumn(), name: 'link_id' },
    visitorKey: { type: 'varchar', length: 80, name: 'visitor_key' },
    userId: { ...refColumn(true), name: 'user_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
    countedAt: { ...dateColumn(true), name: 'counted_at' },
    source: { type: 'varchar', length: 16, nullable: true },
    device: { type: 'varchar', length: 8, nullable: true },
  },
});

/** A link's counted views and distinct visitors on one UTC day ('YYYY-MM-DD'): counts only. */
export interface LinkViewDay {
  linkId: string;
  day: string;
  views: number;
  visitors: number;
}

export const LinkViewDayEntity = new EntitySchema<LinkViewDay>({
  name: 'LinkViewDay',
  tableName: 'link_view_days',
  columns: {
    linkId: { type: 'varchar', length: 36, primary: true, name: 'link_id' },
    day: { type: 'varchar', length: 10, primary: true },
    views: { type: 'integer', default: 0 },
    visitors: { type: 'integer', default: 0 },
  },
});

/** One use of a link: accepting a give link, or giving to a receive link. Once per responder. */
export interface LinkResponse {
  id: string;
  linkId: string;
  responderId: string;
  /** accept: took from a give link; give: gave to a receive link. */
  kind: 'accept' | 'give';
  amountCents: number;
  /** For items: the gift order is placed for this user. */
  itemId: string | null;
  transferId: string;
  createdAt: Date;
}

export const LinkResponseEntity = new EntitySchema<LinkResponse>({
  name: 'LinkResponse',
  tableName: 'link_responses',
  columns: {
    id: idColumn,
    linkId: { ...refColumn(), name: 'link_id' },
    responderId: { ...refColumn(), name: 'responder_id' },
    kind: { type: 'varchar', length: 16 },
    amountCents: centsColumn({ name: 'amount_cents' }),
    itemId: { type: 'varchar', length: 100, nullable: true, name: 'item_id' },
    transferId: { ...refColumn(), name: 'transfer_id' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
});
