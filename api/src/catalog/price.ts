/**
 * The names the link and wishlist services still import; the one implementation is the
 * contract's money module (`dollarsToCents`, `centsToDecimal`).
 */
export { centsToDecimal as centsToValue, dollarsToCents as toCents } from '../../contract/money.js';
