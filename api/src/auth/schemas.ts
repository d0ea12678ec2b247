/** The auth requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/auth.js';
export * from '../../contract/sessions.js';
