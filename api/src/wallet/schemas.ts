/** The wallet requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/wallet.js';
export { MAX_AMOUNT_CENTS_EXCLUSIVE, MIN_AMOUNT_CENTS } from '../../contract/limits.js';
export { INVALID_AMOUNT } from '../../contract/texts.js';
