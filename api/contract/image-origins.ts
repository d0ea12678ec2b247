/**
 * Where eBay serves its listing pictures (production and sandbox): `CATALOG=ebay` item images load
 * from these hosts, so the website's CSP (api/src/catalog/ebay.ts) and the desktop app's
 * (electron/main/security.ts) allow them. The desktop cannot know which catalogue its API runs, so
 * it always allows them.
 */
export const EBAY_IMAGE_ORIGINS: readonly string[] = ['https://i.ebayimg.com', 'https://i.ebayimg.sandbox.ebay.com'];
