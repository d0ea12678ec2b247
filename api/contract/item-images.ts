// No zod here: the visitor's wishlist page imports this, and zod's start-up check trips the page's CSP.

/** Where the embedded catalogue's pictures are served. */
export const CATALOG_IMAGE_PREFIX = '/catalog/images/';
/** The small copy's width: a wishlist row's 72 px picture on a 2× phone screen. */
export const ITEM_THUMB_WIDTH = 144;
/** The small copy of an item's picture (`?w=144`) when the server makes one (the catalogue's); else the picture. */
export const itemThumbUrl = (url: string): string => (url.startsWith(CATALOG_IMAGE_PREFIX) ? `${url}?w=${ITEM_THUMB_WIDTH}` : url);
