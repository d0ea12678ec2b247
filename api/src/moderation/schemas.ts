/** The reports requests and answers are part of the contract shared with the renderer. */
export * from '../../contract/reports.js';
