import { z } from 'zod';
import { count, dollars, isoTime } from './common.js';
import { ADDRESS_FIELD_MAX, COUNTRY_CODES, POSTAL_CODE_MAX } from './limits.js';
import {
  ADDRESS_CITY_REQUIRED,
  ADDRESS_COUNTRY_INVALID,
  ADDRESS_FIELD_TOO_LONG,
  ADDRESS_LINE1_REQUIRED,
  ADDRESS_NAME_REQUIRED,
} from './texts.js';

/**
 * Shipping addresses and item orders. An address is its owner's only: no answer to
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
export const AddressView = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  /** ISO 3166-1 alpha-2. */
  country: z.string().regex(/^[A-Z]{2}$/),
  updatedAt: isoTime,
});
export type AddressView = z.infer<typeof AddressView>;

/** GET /api/users/me/address answers `{ address: null }` until one is saved. */
export const AddressResponse = z.object({ address: AddressView.nullable() });
export type AddressResponse = z.infer<typeof AddressResponse>;

/** PUT answers the saved address and how many waiting orders it placed. */
export const SaveAddressResponse = z.object({ address: AddressView, placedOrders: count });
export type SaveAddressResponse = z.infer<typeof SaveAddressResponse>;

export const ORDER_STATUSES = ['awaiting_address', 'placed', 'shipped', 'delivered', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The statuses a giver is shown: an order waiting for the recipient's address reads `processing`,
 * so the giver never learns that the recipient has no address.
 */
export const GIVER_ORDER_STATUSES = ['processing', 'placed', 'shipped', 'delivered', 'refunded'] as const;
export type GiverOrderStatus = (typeof GIVER_ORDER_STATUSES)[number];

/** What both sides of an order see. */
const orderBase = {
  _id: z.string(),
  item: z.object({ itemId: z.string().nullable(), title: z.string(), photo: z.string().nullable() }),
  /** Dollars: what the gift cost, shipping included. */
  amount: dollars,
  createdAt: isoTime,
  updatedAt: isoTime,
  placedAt: isoTime.nullable(),
  shippedAt: isoTime.nullable(),
  deliveredAt: isoTime.nullable(),
  refundedAt: isoTime.nullable(),
};

/**
 * An order the caller received: never names or hints at the giver, whatever the gift's identity.
 * It names no conversation either: a named gift's thread would name its giver.
 */
export const ReceivedOrderView = z.object({
  ...orderBase,
  role: z.literal('recipient'),
  status: z.enum(ORDER_STATUSES),
  /** Waiting orders go back to the giver at this time unless an address arrives. */
  addressDueAt: isoTime.nullable(),
  /** Where it ships, as the recipient gave it (their own address). */
  shipTo: z.object({ city: z.string(), country: z.string() }).nullable(),
});
export type ReceivedOrderView = z.infer<typeof ReceivedOrderView>;

/** An order the caller gave: the status only, never the recipient's address nor whether they have one. */
export const SentOrderView = z.object({
  ...orderBase,
  role: z.literal('giver'),
  status: z.enum(GIVER_ORDER_STATUSES),
  /** The giver's thread with the recipient where the gift was sent. */
  conversationId: z.string().nullable(),
});
export type SentOrderView = z.infer<typeof SentOrderView>;

/** GET /api/orders: the caller's orders, newest first. */
export const OrdersResponse = z.object({ received: z.array(ReceivedOrderView), sent: z.array(SentOrderView) });
export type OrdersResponse = z.infer<typeof OrdersResponse>;

/** An address as the server keeps it: the body after parsing. */
export type AddressInput = z.output<typeof AddressBody>;
