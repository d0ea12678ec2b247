import { AccountExport, DeleteAccountResponse } from '../../../contract/account.js';
import { SearchProduct, SearchResults } from '../../../contract/catalog.js';
import { AddressResponse, OrdersResponse, SaveAddressResponse } from '../../../contract/orders.js';
import { PurchaseResponse, TransactionResponse, WishlistResponse } from '../../../contract/wishlists.js';
import { json, noContent, type AnswerMap } from './shape.js';

const jpeg = (description: string) => ({ status: 200, media: 'image/jpeg', binary: true, description });

/** The catalogue, wishlists, addresses and orders, the account's export and deletion, analytics. */
export const wishlistAnswers: AnswerMap = {
  'GET /api/products/search': [json(200, SearchResults, 'Matching catalogue products')],
  'GET /api/products/:itemId': [json(200, SearchProduct, 'The product')],
  'GET /catalog/images/:name': [
    jpeg("A picture of the embedded catalogue's (`?w=144`: its small square copy)"),
    { status: 304, description: 'Not modified' },
  ],
  'GET /uploads/:name': [jpeg('An uploaded picture')],
  'GET /wishlists/get-transaction': [json(200, TransactionResponse, 'When the item was bought')],
  'PUT /wishlists/update': [json(200, WishlistResponse, 'The saved wishlist')],
  'POST /wishlists/archive': [json(200, WishlistResponse, "The wishlist with the item in 'Received'")],
  'POST /wishlists/purchase': [json(200, PurchaseResponse, "The item is bought: the gift's conversation")],
  'GET /wishlists/:username': [json(200, WishlistResponse, "The person's wishlist ('Received' for its owner only)")],
  'GET /api/users/me/address': [json(200, AddressResponse, "The caller's own address, or null")],
  'PUT /api/users/me/address': [json(200, SaveAddressResponse, 'The saved address and how many waiting orders it placed')],
  'DELETE /api/users/me/address': [noContent('The address is gone')],
  'GET /api/orders': [json(200, OrdersResponse, "The caller's orders, newest first")],
  'GET /api/account/export': [json(200, AccountExport, "Everything the user's own answers show them, as a JSON attachment")],
  'POST /api/account/delete': [json(200, DeleteAccountResponse, 'The account is closed and its session ended')],
  'POST /analytics/start-session': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
  'POST /analytics/pageview': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
  'POST /analytics/log-event': [noContent('Received (nothing is stored under Sec-GPC: 1)')],
};
