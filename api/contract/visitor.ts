/**
 * Set (to '1', readable by the page) on a website page the server sends to a browser that holds no
 * session, and cleared on one that does and on sign-in: the page then knows it is a visitor's
 * without asking `GET /api/auth/me`, a round trip before its first render. It names nobody.
 */
export const VISITOR_COOKIE = 'giftlink_visitor';
