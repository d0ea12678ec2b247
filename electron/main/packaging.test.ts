// The packaging configuration, checked by electron-builder's own loader and schema (packaging
// itself needs the Electron binary, which cannot be downloaded here).
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID } from './desktop.js';

const root = path.resolve(import.meta.dirname, '../..');
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
});

describe('electron-builder configuration', () => {
  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('packages the desktop app directory with the built out/ and nothing of the server', () => {
    expect(config.appId).toBe(APP_USER_MODEL_ID);
    expect(config.productName).toBe('Giftlink');
    expect(config.directories).toMatchObject({ app: 'desktop', output: 'release', buildResources: 'resources/icons' });
    // electron-builder's loader normalises the plain pattern to a filter.
    expect(config.files).toEqual([{ filter: ['package.json'] }, { from: '../out', to: 'out', filter: ['**/*', '!**/*.map'] }]);
  });

  it('registers giftlink:// and unpacks the native modules from the asar', () => {
    expect(config.protocols).toEqual([{ name: 'Giftlink', schemes: ['giftlink'] }]);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/node_modules/better-sqlite3/**', '**/node_modules/keytar/**']));
  });

  it('builds dmg, nsis, AppImage and deb', () => {
    const targets = [config.mac?.target, config.win?.target, config.linux?.target].flat();
    expect(targets).toEqual(['dmg', 'nsis', 'AppImage', 'deb']);
  });

  it('has icons made from the Giftlink mark at the sizes each platform needs', async () => {
    const icons = path.join(root, 'resources/icons');
    expect(await sharp(path.join(icons, 'icon.png')).metadata()).toMatchObject({ width: 1024, height: 1024, format: 'png' });
    for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) {
      const meta = await sharp(path.join(icons, `${size}x${size}.png`)).metadata();
      expect([meta.width, meta.height], `${size}`).toEqual([size, size]);
    }
    for (const tray of ['tray.png', 'tray@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png'])
      expect(existsSync(path.join(icons, tray)), tray).toBe(true);
  });
});
