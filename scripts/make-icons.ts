// Renders the desktop app's icons from the Giftlink mark (renderer/public/favicon.svg) with sharp:
// resources/icons/icon.png (1024 px, electron-builder makes the .icns and .ico from it), the sizes
// Linux wants ({n}x{n}.png), and the tray icons (tray.png, tray@2x.png; trayTemplate*.png, the
// monochrome glyph macOS tints for light and dark menu bars). Run: npm run make:icons
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'resources/icons');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

async function render(svg: string, size: number, file: string): Promise<void> {
  // Density scales the viewBox so the vector is rasterised at the target size, not upscaled.
  const units = Number(/viewBox="[\d.]+ [\d.]+ ([\d.]+)/.exec(svg)?.[1] ?? 64);
  const density = Math.ceil((72 * size) / units);
  await sharp(Buffer.from(svg), { density }).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(out, file));
}

async function main(): Promise<void> {
  const mark = await readFile(path.join(root, 'renderer/public/favicon.svg'), 'utf8');
  await mkdir(out, { recursive: true });
  await render(mark, 1024, 'icon.png');
  for (const size of SIZES) await render(mark, size, `${size}x${size}.png`);
  await render(mark, 32, 'tray.png');
  await render(mark, 64, 'tray@2x.png');
  // The glyph alone, black on transparent, thicker so it reads at 16 px.
  const glyph = mark
    .replace(/<rect width="64" height="64"[^>]*\/>/, '')
    .replace('stroke="#fff"', 'stroke="#000"')
    .replace('stroke-width="4"', 'stroke-width="5"')
    .replace('viewBox="0 0 64 64"', 'viewBox="7 9 50 50"');
  if (glyph === mark) throw new Error('favicon.svg changed shape: update the tray glyph rules in scripts/make-icons.ts');
  await render(glyph, 16, 'trayTemplate.png');
  await render(glyph, 32, 'trayTemplate@2x.png');
  console.log(`icons written to ${path.relative(root, out)}`);
}

await main();
