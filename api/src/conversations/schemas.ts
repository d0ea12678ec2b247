/** The conversations requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/conversations.js';
export { PageQuery } from '../../contract/common.js';
export { MISSED_MESSAGES_LIMIT } from '../../contract/limits.js';
