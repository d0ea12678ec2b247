import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineProblem, nativeProblem } from './node-guard.js';

const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('the Node an entry runs on', () => {
  it('refuses a Node older than engines in one line naming what to run, and lets the project Node through', () => {
    const line = engineProblem('20.20.2', pkg.engines.node, '/usr/bin/node');
    expect(line).toBe(
      `Giftlink needs Node ${pkg.engines.node} and this is Node 20.20.2 (/usr/bin/node): run it through npm (npm start, npm run …), which uses the Node scripts/ensure-node.sh installs, or \`source scripts/ensure-node.sh\` first.`,
    );
    expect(engineProblem('24.21.0', pkg.engines.node)).toBeUndefined();
    expect(engineProblem(process.versions.node, pkg.engines.node)).toBeUndefined();
  });

  it('names a native module that cannot load, the first line of why, and the reinstall', () => {
    const err = new Error('The module was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115.');
    expect(nativeProblem('better-sqlite3', err, '24.21.0')).toBe(
      `Giftlink cannot load better-sqlite3 on Node 24.21.0 (${process.platform}-${process.arch}): The module was compiled against a different Node.js version using. Reinstall the dependencies on this machine and Node: \`npm ci\`.`,
    );
  });

  // A step that is not another `npm run`, nor a set-up script that needs no Node or puts it first itself, goes through scripts/with-node.sh.
  it('runs every npm script on the project Node', () => {
    const setUp = ['bash scripts/ensure-chromium.sh', 'bash scripts/ensure-node.sh', 'bash scripts/install-quiet.sh'];
    const strays = Object.entries(pkg.scripts).flatMap(([name, script]) =>
      script
        .replace(/sh -c '[^']*'/g, 'sh -c …')
        .split('&&')
        .map((step) => step.trim().replace(/^([A-Z_]+=\S+ )+/, ''))
        .filter((step) => !step.startsWith('bash scripts/with-node.sh ') && !step.startsWith('npm run ') && !setUp.includes(step))
        .map((step) => `${name}: ${step}`),
    );
    expect(strays).toEqual([]);
  });
});
