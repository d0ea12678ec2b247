// Renders the desktop app's icons from the Giftlink mark (renderer/public/favicon.svg) with sharp:
// resources/icons/icon.png (1024 px, electron-builder makes the .icns and .ico from it), the sizes
// Linux wants ({n}x{n}.png), and the tray icons (tray.png, tray@2x.png; trayTemplate*.png, the
// monochrome glyph macOS tints for light and dark menu bars), and the web app manifest's icons
// (renderer/public/icons: 192 and 512 px, and a maskable 512 px with the glyph in the safe zone).
// Run: npm run make:icons
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'resources/icons');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

const webOut = path.join(root, 'renderer/public/icons');

async function render(svg: string, size: number, file: string, dir = out): Promise<void> {
  // Density scales the viewBox so the vector is rasterised at the target size, not upscaled.
  const units = Number(/viewBox="[\d.]+ [\d.]+ ([\d.]+)/.exec(svg)?.[1] ?? 64);
  const density = Math.ceil((72 * size) / units);
  await sharp(Buffer.from(svg), { density }).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(dir, file));
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
  await mkdir(webOut, { recursive: true });
  await render(mark, 192, 'icon-192.png', webOut);
  await render(mark, 512, 'icon-512.png', webOut);
  // Maskable: square, full bleed, the glyph within the middle 80% a launcher's mask keeps.
  const maskable = mark.replace('rx="16" ', '').replace('<g fill="none"', '<g transform="translate(6.4 6.4) scale(0.8)" fill="none"');
  if (maskable === mark) throw new Error('favicon.svg changed shape: update the maskable icon rules in scripts/make-icons.ts');
  await render(maskable, 512, 'icon-maskable-512.png', webOut);
  console.log(`icons written to ${path.relative(root, out)} and ${path.relative(root, webOut)}`);
}

await main();
