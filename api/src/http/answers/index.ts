export { servedPaths, type ServedPath } from './served.js';
