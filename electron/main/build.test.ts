// The desktop build as Electron loads it: `npm test` runs build:desktop before these; run alone,
// they build first when out/ is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import config from '../../electron.vite.config.js';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, 'out');
interface PackageJson {
  main?: string;
  version: string;
  type?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;

beforeAll(() => {
  if (!existsSync(path.join(out, 'main/index.js')) || !existsSync(path.join(out, 'renderer/index.html'))) {
    execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { cwd: root, stdio: 'pipe' });
  }
}, 120_000);

describe('desktop build', () => {
  it('builds the preload as a classic script a sandboxed renderer can run', () => {
    const files = readdirSync(path.join(out, 'preload'));
    expect(files).toContain('index.cjs');
    const source = readFileSync(path.join(out, 'preload/index.cjs'), 'utf8');
    expect(() => new vm.Script(source, { filename: 'index.cjs' })).not.toThrow();
  });

  it("points package.json's main at the built main process", () => {
    expect(pkg.main).toBe('out/main/index.js');
    expect(existsSync(path.join(root, pkg.main ?? 'missing'))).toBe(true);
  });

  it('loads the preload the build made', () => {
    const main = readFileSync(path.join(out, 'main/index.js'), 'utf8');
    expect(main).toContain('../preload/index.cjs');
  });

  it('bundles the React app once, minified, with absolute asset paths for app://giftlink', () => {
    const html = readFileSync(path.join(out, 'renderer/index.html'), 'utf8');
    const scripts = [...html.matchAll(/src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src.startsWith('/assets/')).toBe(true);
    const entry = readFileSync(path.join(out, 'renderer', scripts[0]), 'utf8');
    // Minified: a few long lines, not tens of thousands.
    expect(entry.split('\n').length).toBeLessThan(200);
    expect(existsSync(path.join(out, 'web'))).toBe(false);
  });

  it("builds the renderer on Preact's compat layer, as the site's build does (renderer/preact.ts)", () => {
    const renderer = (config as { renderer?: { plugins?: unknown[] } }).renderer;
    const names = (renderer?.plugins ?? []).flat(3).map((plugin) => (plugin as { name?: string } | null)?.name);
    expect(names).toContain('giftlink:preact-compat');
    expect(names).toContain('giftlink:absolute-base');
  });

  it('imports at run time only Node, electron and the desktop package.json dependencies', () => {
    const desktop = JSON.parse(readFileSync(path.join(root, 'desktop/package.json'), 'utf8')) as PackageJson;
    const shipped = new Set(['electron', ...Object.keys(desktop.dependencies ?? {}), ...Object.keys(desktop.optionalDependencies ?? {})]);
    for (const dir of ['main', 'preload']) {
      for (const file of readdirSync(path.join(out, dir))) {
        const source = readFileSync(path.join(out, dir, file), 'utf8');
        const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g)].map(
          (m) => m[1],
        );
        for (const specifier of specifiers) {
          const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
          expect(specifier.startsWith('node:') || shipped.has(name), `${dir}/${file} imports ${specifier}`).toBe(true);
        }
      }
    }
  });

  it('packages the desktop with its own package.json at the same version', () => {
    const desktop = JSON.parse(readFileSync(path.join(root, 'desktop/package.json'), 'utf8')) as PackageJson;
    expect(desktop.version).toBe(pkg.version);
    expect(desktop.main).toBe(pkg.main);
    expect(desktop.type).toBe('module');
    // Only the desktop's runtime dependencies (never the server's), at the versions the root tests.
    expect(Object.keys(desktop.dependencies ?? {}).sort()).toEqual(['better-sqlite3', 'electron-store']);
    expect(Object.keys(desktop.optionalDependencies ?? {})).toEqual(['keytar']);
    const rootVersions = { ...pkg.dependencies, ...pkg.optionalDependencies };
    for (const [name, version] of Object.entries({ ...desktop.dependencies, ...desktop.optionalDependencies }))
      expect(version, name).toBe(rootVersions[name]);
  });
});
