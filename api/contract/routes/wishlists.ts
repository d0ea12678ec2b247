import { AccountExport, DeleteAccountResponse } from '../account.js';
import { SearchProduct, SearchResults } from '../catalog.js';
import { AddressResponse, OrdersResponse, SaveAddressResponse } from '../orders.js';
import { PurchaseResponse, TransactionResponse, WishlistResponse } from '../wishlists.js';
import { jpeg, json, noContent, type RouteSpec } from '../route-table.js';

/** The catalogue, wishlists, addresses and orders, the account's export and deletion, analytics. */
export const wishlistRoutes = {
  'GET /api/products/search': { answers: [json(200, SearchResults, 'Matching catalogue products')] },
  'GET /api/products/:itemId': { answers: [json(200, SearchProduct, 'The product')] },
  'GET /catalog/images/:name': {
    answers: [
      jpeg("A picture of the embedded catalogue's (`?w=144`: its small square copy)"),
      { status: 304, description: 'Not modified' },
    ],
  },
  'GET /wishlists/get-transaction': { answers: [json(200, TransactionResponse, 'When the item was bought')] },
  'PUT /wishlists/update': { answers: [json(200, WishlistResponse, 'The saved wishlist')] },
  'POST /wishlists/archive': { answers: [json(200, WishlistResponse, "The wishlist with the item in 'Received'")] },
  'POST /wishlists/purchase': { answers: [json(200, PurchaseResponse, "The item is bought: the gift's conversation")] },
  'GET /wishlists/:username': { answers: [json(200, WishlistResponse, "The person's wishlist ('Received' for its owner only)")] },
  'GET /api/users/me/address': { answers: [json(200, AddressResponse, "The caller's own address, or null")] },
  'PUT /api/users/me/address': { answers: [json(200, SaveAddressResponse, 'The saved address and how many waiting orders it placed')] },
  'DELETE /api/users/me/address': { answers: [noContent('The address is gone')] },
  'GET /api/orders': { answers: [json(200, OrdersResponse, "The caller's orders, newest first")] },
  'GET /api/account/export': { answers: [json(200, AccountExport, "Everything the user's own answers show them, as a JSON attachment")] },
  'POST /api/account/delete': { answers: [json(200, DeleteAccountResponse, 'The account is closed and its session ended')] },
  'POST /analytics/start-session': { answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
  'POST /analytics/pageview': { answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
  'POST /analytics/log-event': { answers: [noContent('Received (nothing is stored under Sec-GPC: 1)')] },
} satisfies Record<string, RouteSpec>;
