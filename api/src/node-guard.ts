// The first import of every entry (the server, the commands): on a Node older than package.json's `engines`
// better-sqlite3 dies with a bare segmentation fault, and a native module that cannot load throws a stack trace;
// either is told here in one line naming what to run, before anything uses them.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const FIX =
  'run it through npm (npm start, npm run …), which uses the Node scripts/ensure-node.sh installs, or `source scripts/ensure-node.sh` first';

/** The refusal for a Node outside `wanted` (package.json's engines.node), or undefined when it satisfies it. */
export function engineProblem(version: string, wanted: string | undefined, nodePath = process.execPath): string | undefined {
  if (!wanted || semver.satisfies(version, wanted)) return undefined;
  return `Giftlink needs Node ${wanted} and this is Node ${version} (${nodePath}): ${FIX}.`;
}

/** The refusal for a native module that failed to load: which one, why in a line, and what reinstalls it. */
export function nativeProblem(name: string, err: unknown, version = process.versions.node): string {
  const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return `Giftlink cannot load ${name} on Node ${version} (${process.platform}-${process.arch}): ${why}. Reinstall the dependencies on this machine and Node: \`npm ci\`.`;
}

/** package.json's engines.node, found above this file (api/src when run from source, dist/server/api/src compiled). */
function wantedNode(): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; engines?: { node?: string } };
    if (pkg.name === 'giftlink') return pkg.engines?.node;
  }
  return undefined;
}

function refuse(line: string): never {
  console.error(line);
  process.exit(1);
}

const engine = engineProblem(process.versions.node, wantedNode());
if (engine) refuse(engine);

const require = createRequire(import.meta.url);
// Each is loaded as the server will: better-sqlite3 loads its binary when the first database opens.
const natives: [string, () => void][] = [
  ['better-sqlite3', () => new (require('better-sqlite3') as typeof import('better-sqlite3'))(':memory:').close()],
  ['argon2', () => require('argon2')],
  ['sharp', () => require('sharp')],
];
for (const [name, load] of natives) {
  try {
    load();
  } catch (err) {
    refuse(nativeProblem(name, err));
  }
}
