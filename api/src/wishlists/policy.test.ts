import { ruleTable } from '../testing/policy.js';
import { canArchiveItem, canBuyFrom, canEditWishlist, canSeePurchase, canSeeReceived } from './policy.js';

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

ruleTable('canArchiveItem: only the owner archives, and only a bought item', canArchiveItem, [
  ['the owner, a bought item', owner, { username: 'olive' }, { purchased: true }, true],
  ['the owner, an item not bought', owner, { username: 'olive' }, { purchased: false }, false],
  ['the buyer, a bought item', buyer, { username: 'olive' }, { purchased: true }, false],
  ['someone else, a bought item', other, { username: 'olive' }, { purchased: true }, false],
]);

ruleTable("canSeeReceived: the 'Received' section is the owner's", canSeeReceived, [
  ['the owner', owner, owner, true],
  ['someone else', buyer, owner, false],
  ['a visitor who is not signed in', null, owner, false],
]);
