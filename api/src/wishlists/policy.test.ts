import { ruleTable } from '../testing/policy.js';
import { canBuyFrom, canEditWishlist, canSeePurchase } from './policy.js';

const owner = { id: 'id-owner', username: 'olive' };
const buyer = { id: 'id-buyer', username: 'bea' };
const other = { id: 'id-other', username: 'otto' };
const bought = { purchaserId: 'id-buyer' };
const notBought = { purchaserId: null };

ruleTable('canEditWishlist: only its owner edits a wishlist', canEditWishlist, [
  ['the owner', owner, { username: 'olive' }, true],
  ['the owner, naming it in another case', owner, { username: 'Olive' }, true],
  ["someone else's wishlist", buyer, { username: 'olive' }, false],
]);

ruleTable('canBuyFrom: anyone but the owner buys from a wishlist', canBuyFrom, [
  ['the owner', owner, owner, false],
  ['someone else', buyer, owner, true],
]);

ruleTable("canSeePurchase: when an item was bought is for the owner and that item's buyer", canSeePurchase, [
  ['the owner, a bought item', owner, owner, bought, true],
  ['the owner, an item not bought', owner, owner, notBought, true],
  ['the owner, no such item', owner, owner, null, true],
  ['the buyer', buyer, owner, bought, true],
  ['the buyer of nothing', buyer, owner, notBought, false],
  ['someone else, a bought item', other, owner, bought, false],
  ['someone else, no such item', other, owner, null, false],
]);
