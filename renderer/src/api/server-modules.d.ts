/**
 * The API's presenters are imported for their types only, but the type checker still reads the
 * entity files behind them, and one of those imports a Node built-in. Declared here (as `any`)
 * so the renderer's DOM-only type check can read them; nothing of it reaches the bundle.
 */
declare module 'node:crypto';
