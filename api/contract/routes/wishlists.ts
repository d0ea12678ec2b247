import { AccountExport, DeleteAccountBody, DeleteAccountResponse } from '../account.js';
import { LogEventBody, PageviewBody, StartSessionBody } from '../analytics-envelopes.js';
import { ItemIdParams, SearchProduct, SearchQuery, SearchResults } from '../catalog.js';
import { AddressBody, AddressResponse, OrdersResponse, SaveAddressResponse } from '../orders.js';
import {
  ArchiveItemBody,
  PurchaseBody,
  PurchaseResponse,
  TransactionQuery,
  TransactionResponse,
  UpdateWishlistBody,
  WishlistParams,
  WishlistResponse,
} from '../wishlists.js';
import { jpeg, json, noContent, type RouteSpec } from '../route-table.js';

/** The catalogue, wishlists, addresses and orders, the account's export and deletion, analytics. */
export const wishlistRoutes = {
  'GET /api/products/search': { query: SearchQuery, answers: [json(200, SearchResults, 'Matching catalogue products')] },
  'GET /api/products/:itemId': { params: ItemIdParams, answers: [json(200, SearchProduct, 'The product')] },
  'GET /catalog/images/:name': {
    answers: [
      jpeg("A picture of the embedded catalogue's (`?w=144`: its small square copy)"),
      { status: 304, description: 'Not modified' },
    ],
  },
  'GET /wishlists/get-transaction': { query: TransactionQuery, answers: [json(200, TransactionResponse, 'When the item was bought')] },
  'PUT /wishlists/update': { body: UpdateWishlistBody, answers: [json(200, WishlistResponse, 'The saved wishlist')] },
  'POST /wishlists/archive': { body: ArchiveItemBody, answers: [json(200, WishlistResponse, "The wishlist with the item in 'Received'")] },
  'POST /wishlists/purchase': { body: PurchaseBody, answers: [json(200, PurchaseResponse, "The item is bought: the gift's conversation")] },
  'GET /wishlists/:username': {
    params: WishlistParams,
    answers: [json(200, WishlistResponse, "The person's wishlist ('Received' for its owner only)")],
  },
  'GET /api/users/me/address': { answers: [json(200, AddressResponse, "The caller's own address, or null")] },
  'PUT /api/users/me/address': {
    body: AddressBody,
    answers: [json(200, SaveAddressResponse, 'The saved address and how many waiting orders it placed')],
  },
  'DELETE /api/users/me/address': { answers: [noContent('The address is gone')] },
  'GET /api/orders': { answers: [json(200, OrdersResponse, "The caller's orders, newest first")] },
  'GET /api/account/export': { answers: [json(200, AccountExport, "Everything the user's own answers show them, as a JSON attachment")] },
  'POST /api/account/delete': {
    body: DeleteAccountBody,
    answers: [json(200, DeleteAccountResponse, 'The account is closed and its session ended')],
  },
  'POST /analytics/start-session': { body: StartSessionBody, answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
  'POST /analytics/pageview': { body: PageviewBody, answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
  'POST /analytics/log-event': { body: LogEventBody, answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
} satisfies Record<string, RouteSpec>;
