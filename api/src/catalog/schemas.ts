/** The catalogue's product shape and search request are part of the contract shared with the renderer. */
export * from '../../contract/catalog.js';
