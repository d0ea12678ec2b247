import { z } from 'zod';
import type { AccountExport, DeleteAccountResponse, ExportedConversation } from '../../../contract/account.js';
import { SearchProduct, SearchResults } from '../../../contract/catalog.js';
import {
  GIVER_ORDER_STATUSES,
  ORDER_STATUSES,
  type AddressResponse,
  type AddressView,
  type OrdersResponse,
  type ReceivedOrderView,
  type SaveAddressResponse,
  type SentOrderView,
} from '../../../contract/orders.js';
import type {
  PurchaseResponse,
  TransactionResponse,
  WishlistItemView,
  WishlistResponse,
  WishlistView,
} from '../../../contract/wishlists.js';
import { ConversationViewSchema, MessageViewSchema, NotificationViewSchema } from './conversations.js';
import { LinkViewSchema } from './links.js';
import { MoneyHistoryEntrySchema } from './money.js';
import { count, dollars, isoTime, json, noContent, shape, type AnswerMap } from './shape.js';
import { InviteViewSchema, PrivateUserSchema } from './users.js';

const WishlistItemSchema = shape<WishlistItemView>()(
  z.object({
    _id: z.string(),
    itemId: z.string(),
    name: z.string(),
    title: z.string(),
    price: dollars,
    shippingPrice: z.union([dollars, z.literal('Calculated')]),
    shippingCost: dollars,
    total: dollars,
    condition: z.string(),
    description: z.string(),
    imageUrl: z.string(),
    allImages: z.array(z.string()),
    purchased: z.boolean(),
    purchasedAt: isoTime.optional(),
    archivedAt: isoTime.optional(),
  }),
);

const WishlistViewSchema = shape<WishlistView>()(
  z.object({ username: z.string(), items: z.array(WishlistItemSchema), received: z.array(WishlistItemSchema) }),
);
const WishlistResponseSchema = shape<WishlistResponse>()(z.object({ userWishlist: WishlistViewSchema }));
const PurchaseSchema = shape<PurchaseResponse>()(z.object({ conversationId: z.string() }));
const TransactionSchema = shape<TransactionResponse>()(z.object({ wishlistTransactionData: z.object({ createdAt: isoTime }) }));

const AddressViewSchema = shape<AddressView>()(
  z.object({
    name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string().regex(/^[A-Z]{2}$/),
    updatedAt: isoTime,
  }),
);
const AddressResponseSchema = shape<AddressResponse>()(z.object({ address: AddressViewSchema.nullable() }));
const SaveAddressSchema = shape<SaveAddressResponse>()(z.object({ address: AddressViewSchema, placedOrders: count }));

const orderBase = {
  _id: z.string(),
  item: z.object({ itemId: z.string().nullable(), title: z.string(), photo: z.string().nullable() }),
  amount: dollars,
  createdAt: isoTime,
  updatedAt: isoTime,
  placedAt: isoTime.nullable(),
  shippedAt: isoTime.nullable(),
  deliveredAt: isoTime.nullable(),
  refundedAt: isoTime.nullable(),
};
/** The recipient's side: never the giver, not even a conversation. */
const ReceivedOrderSchema = shape<ReceivedOrderView>()(
  z.object({
    ...orderBase,
    role: z.literal('recipient'),
    status: z.enum(ORDER_STATUSES),
    addressDueAt: isoTime.nullable(),
    shipTo: z.object({ city: z.string(), country: z.string() }).nullable(),
  }),
);
/** The giver's side: never the address, and a wait for one reads `processing`. */
const SentOrderSchema = shape<SentOrderView>()(
  z.object({ ...orderBase, role: z.literal('giver'), status: z.enum(GIVER_ORDER_STATUSES), conversationId: z.string().nullable() }),
);
const OrdersSchema = shape<OrdersResponse>()(z.object({ received: z.array(ReceivedOrderSchema), sent: z.array(SentOrderSchema) }));

const ExportedConversationSchema = shape<ExportedConversation>()(
  z.object({ conversation: ConversationViewSchema, messagesYouSent: z.array(MessageViewSchema) }),
);
const AccountExportSchema = shape<AccountExport>()(
  z.object({
    format: z.literal('giftlink-data-export'),
    version: z.literal(1),
    exportedAt: isoTime,
    profile: PrivateUserSchema,
    links: z.array(LinkViewSchema),
    wishlist: WishlistViewSchema,
    conversations: z.array(ExportedConversationSchema),
    notifications: z.array(NotificationViewSchema),
    invites: z.array(InviteViewSchema),
    orders: OrdersSchema,
    moneyHistory: z.array(MoneyHistoryEntrySchema),
  }),
);
const DeleteAccountSchema = shape<DeleteAccountResponse>()(z.object({ closed: z.literal(true) }));

const jpeg = (description: string) => ({ status: 200, media: 'image/jpeg', binary: true, description });

/** The catalogue, wishlists, addresses and orders, the account's export and deletion, analytics. */
export const wishlistAnswers: AnswerMap = {
  'GET /api/products/search': [json(200, SearchResults, 'Matching catalogue products')],
  'GET /api/products/:itemId': [json(200, SearchProduct, 'The product')],
  'GET /catalog/images/:name': [jpeg("A picture of the embedded catalogue's"), { status: 304, description: 'Not modified' }],
  'GET /uploads/:name': [jpeg('An uploaded picture')],
  'GET /wishlists/get-transaction': [json(200, TransactionSchema, 'When the item was bought')],
  'PUT /wishlists/update': [json(200, WishlistResponseSchema, 'The saved wishlist')],
  'POST /wishlists/archive': [json(200, WishlistResponseSchema, "The wishlist with the item in 'Received'")],
  'POST /wishlists/purchase': [json(200, PurchaseSchema, "The item is bought: the gift's conversation")],
  'GET /wishlists/:username': [json(200, WishlistResponseSchema, "The person's wishlist ('Received' for its owner only)")],
  'GET /api/users/me/address': [json(200, AddressResponseSchema, "The caller's own address, or null")],
  'PUT /api/users/me/address': [json(200, SaveAddressSchema, 'The saved address and how many waiting orders it placed')],
  'DELETE /api/users/me/address': [noContent('The address is gone')],
  'GET /api/orders': [json(200, OrdersSchema, "The caller's orders, newest first")],
  'GET /api/account/export': [json(200, AccountExportSchema, "Everything the user's own answers show them, as a JSON attachment")],
  'POST /api/account/delete': [json(200, DeleteAccountSchema, 'The account is closed and its session ended')],
  'POST /analytics/start-session': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
  'POST /analytics/pageview': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
  'POST /analytics/log-event': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
};
