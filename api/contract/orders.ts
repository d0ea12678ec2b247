import { z } from 'zod';
import { ADDRESS_FIELD_MAX, COUNTRY_CODES, POSTAL_CODE_MAX } from './limits.js';
import {
  ADDRESS_CITY_REQUIRED,
  ADDRESS_COUNTRY_INVALID,
  ADDRESS_FIELD_TOO_LONG,
  ADDRESS_LINE1_REQUIRED,
  ADDRESS_NAME_REQUIRED,
} from './texts.js';

/**
 * Shipping addresses and item orders (issue 11). An address is its owner's only: no answer to
 * anyone else carries it. An order is what an item gift became: its recipient sees the item and
 * the status, never the giver; its giver sees the item and the status, never the address.
 */

const field = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(ADDRESS_FIELD_MAX, ADDRESS_FIELD_TOO_LONG)
    .regex(/^[^\p{Cc}\p{Cf}]*$/u, required);

const optionalField = z
  .string()
  .trim()
  .max(ADDRESS_FIELD_MAX, ADDRESS_FIELD_TOO_LONG)
  .regex(/^[^\p{Cc}\p{Cf}]*$/u, ADDRESS_FIELD_TOO_LONG)
  .optional()
  .transform((v) => v || null);

/**
 * PUT /api/users/me/address: the whole address. The postal code is checked against the country's
 * format on the server (postcode-validator); countries without postal codes may leave it empty.
 */
export const AddressBody = z.object({
  name: field(ADDRESS_NAME_REQUIRED),
  line1: field(ADDRESS_LINE1_REQUIRED),
  line2: optionalField,
  city: field(ADDRESS_CITY_REQUIRED),
  region: optionalField,
  postalCode: z
    .string()
    .trim()
    .max(POSTAL_CODE_MAX, ADDRESS_FIELD_TOO_LONG)
    .optional()
    .transform((v) => (v ? v.toUpperCase() : null)),
  country: z
    .string({ error: ADDRESS_COUNTRY_INVALID })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => COUNTRY_CODES.includes(v), ADDRESS_COUNTRY_INVALID),
});
export type AddressRequest = z.input<typeof AddressBody>;

/** GET/PUT /api/users/me/address: the caller's own address. */
export interface AddressView {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  updatedAt: string;
}

/** GET /api/users/me/address answers `{ address: null }` until one is saved. */
export interface AddressResponse {
  address: AddressView | null;
}

/** PUT answers the saved address and how many waiting orders it placed. */
export interface SaveAddressResponse {
  address: AddressView;
  placedOrders: number;
}

export const ORDER_STATUSES = ['awaiting_address', 'placed', 'shipped', 'delivered', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The statuses a giver is shown: an order waiting for the recipient's address reads `processing`,
 * so the giver never learns that the recipient has no address.
 */
export const GIVER_ORDER_STATUSES = ['processing', 'placed', 'shipped', 'delivered', 'refunded'] as const;
export type GiverOrderStatus = (typeof GIVER_ORDER_STATUSES)[number];

/** What both sides of an order see. */
interface OrderBase {
  _id: string;
  item: { itemId: string | null; title: string; photo: string | null };
  /** Dollars: what the gift cost, shipping included. */
  amount: number;
  createdAt: string;
  updatedAt: string;
  placedAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  refundedAt: string | null;
}

/**
 * An order the caller received: never names or hints at the giver, whatever the gift's identity.
 * It names no conversation either: a named gift's thread would name its giver.
 */
export interface ReceivedOrderView extends OrderBase {
  role: 'recipient';
  status: OrderStatus;
  /** Waiting orders go back to the giver at this time unless an address arrives. */
  addressDueAt: string | null;
  /** Where it ships, as the recipient gave it (their own address). */
  shipTo: { city: string; country: string } | null;
}

/** An order the caller gave: the status only, never the recipient's address nor whether they have one. */
export interface SentOrderView extends OrderBase {
  role: 'giver';
  status: GiverOrderStatus;
  /** The giver's thread with the recipient where the gift was sent. */
  conversationId: string | null;
}

/** GET /api/orders: the caller's orders, newest first. */
export interface OrdersResponse {
  received: ReceivedOrderView[];
  sent: SentOrderView[];
}
