// `npm run invite` / `npm run moderation` / `npm run backup` / `npm run restore`: runs a compiled server command (dist/server/api/src/<command>.js),
// compiling the server first only when a source file is newer than the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Before compiling: an older Node is told in one line (as api/src/node-guard.ts tells the command itself).
const wanted = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines?.node;
if (wanted && !semver.satisfies(process.versions.node, wanted)) {
  console.error(
    `Giftlink needs Node ${wanted} and this is Node ${process.versions.node} (${process.execPath}): run it through npm (npm start, npm run …), which uses the Node scripts/ensure-node.sh installs, or \`source scripts/ensure-node.sh\` first.`,
  );
  process.exit(1);
}
const stamp = path.join(root, 'dist/server/.built');
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/server-command.mjs <invites/cli|moderation/cli|backup/cli> [args…]');
  process.exit(2);
}

/** The newest modification time of the server's sources and compiler settings. */
function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(file).mtimeMs);
    }
  };
  visit(path.join(root, 'api'));
  visit(path.join(root, 'renderer/src'));
  for (const config of ['tsconfig.json', 'tsconfig.server.json', 'package-lock.json'])
    newest = Math.max(newest, fs.statSync(path.join(root, config)).mtimeMs);
  return newest;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const entry = path.join(root, 'dist/server/api/src', `${command}.js`);
if (!fs.existsSync(entry) || newestSource() >= built) {
  const started = Date.now();
  const tsc = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.server.json'], { cwd: root, stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // Stamped with the time compiling began: a source saved during the build is compiled next time.
  fs.writeFileSync(stamp, '');
  fs.utimesSync(stamp, new Date(started), new Date(started));
}
const run = spawnSync(process.execPath, ['--enable-source-maps', entry, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
