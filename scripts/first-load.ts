/**
 * `npm run size:web`: the script a signed-out visitor's browser loads before a shared page shows,
 * from the built website's manifest (dist/web/.vite/manifest.json, or the folder given as the first
 * argument): the entry and its static imports (the app, renderer/src/boot.tsx, and the libraries;
 * the server's loader starts the entry once the markup has painted), any chunk the entry imports
 * dynamically with its static imports, and the page's own chunk with its static imports (the app
 * loads that chunk before its first render). Prints the gzip size per
 * page and exits 1 when one is above the budget or loads server code or the
 * profanity list up front.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// Raised from 80 KB for the paused state and the footer every visitor page now carries (docs/PERFORMANCE.md).
export const BUDGET_BYTES = 81 * 1024;

/** The pages a shared address opens, and the source file of each page's chunk. */
export const FIRST_PAGES = [
  { path: '/link/x', page: 'src/pages/link/LinkPage.tsx' },
  { path: '/wishlist/x', page: 'src/pages/wishlist/WishlistPage.tsx' },
] as const;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface FirstLoad {
  path: string;
  files: string[];
  gzipBytes: number;
  /** Sources that must never be in a first load (server code, the profanity list) but are. */
  forbidden: string[];
}

/** Server code and the profanity list (obscenity): loaded only where used, never up front. */
const NEVER_FIRST = /(^|\/)api\/src\/|api\/contract\/blocklist|node_modules\/obscenity\//;

/** A chunk's file and every file it imports statically, each once. */
function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no chunk ${key}: was the page split out (renderer/src/App.tsx)?`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
}

/** The first load of each shared page in the website built into `webDir`. */
export function firstLoads(webDir: string): FirstLoad[] {
  const manifestFile = path.join(webDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`npm run build:web\` first.`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('The manifest has no entry chunk.');
  const gzipOf = (file: string) => gzipSync(fs.readFileSync(path.join(webDir, file)), { level: 9 }).length;
  return FIRST_PAGES.map(({ path: pagePath, page }) => {
    const files = new Set<string>();
    staticClosure(manifest, entry, files);
    for (const app of manifest[entry].dynamicImports ?? []) staticClosure(manifest, app, files);
    staticClosure(manifest, page, files);
    const scripts = [...files].filter((file) => file.endsWith('.js'));
    const forbidden = Object.entries(manifest)
      .filter(([key, chunk]) => files.has(chunk.file) && NEVER_FIRST.test(key))
      .map(([key]) => key);
    return { path: pagePath, files: scripts, gzipBytes: scripts.reduce((sum, file) => sum + gzipOf(file), 0), forbidden };
  });
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function main(): number {
  const webDir = path.resolve(process.argv[2] ?? 'dist/web');
  let failed = false;
  for (const load of firstLoads(webDir)) {
    const over = load.gzipBytes > BUDGET_BYTES;
    failed ||= over;
    console.log(
      `${over ? 'FAIL' : 'PASS'} ${load.path}: ${kb(load.gzipBytes)} gzip in ${load.files.length} scripts (budget ${kb(BUDGET_BYTES)})`,
    );
    for (const file of load.files) console.log(`     ${file}`);
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) process.exitCode = main();
