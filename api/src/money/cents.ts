/** Dollars on the wire, integer cents inside: the contract's one money module. */
export { centsToDollars, dollarsToCents } from '../../contract/money.js';
