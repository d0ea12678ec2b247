/** The wishlist requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/wishlists.js';
export { WISHLIST_MAX } from '../../contract/limits.js';
export {
  ALREADY_PURCHASED,
  ARCHIVE_NOT_PURCHASED,
  ITEM_INFO_ERROR,
  ITEM_NOT_FOUND,
  NOT_PURCHASED,
  OWN_ITEM,
  SHIPPING_ERROR,
  TOO_MANY_ITEMS,
  USER_NOT_FOUND,
  WISHLIST_BUSY,
} from '../../contract/texts.js';
