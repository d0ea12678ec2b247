/** The wallet requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/wallet.js';
export { INVALID_AMOUNT } from '../../contract/texts.js';
