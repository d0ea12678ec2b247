/** Illustration rendering: a product's icon on a seeded backdrop, as a 400x400 JPEG. */
import sharp from 'sharp';
import { hsl, palette } from './colour.js';
import { ICONS, type Icon } from './icons/index.js';
import { hashStr, mulberry32 } from './random.js';

export function svgFor(icon: Icon, seedKey: string, variant: 1 | 2): string {
  const h = hashStr(seedKey);
  const hue = h % 360;
  const c = palette(hue);
  const bgHue = variant === 1 ? hue : hue + 48;
  const bg1 = hsl(bgHue, 72, variant === 1 ? 92 : 88);
  const bg2 = hsl(bgHue + 28, 58, variant === 1 ? 76 : 70);
  const r2 = mulberry32(h ^ (variant * 0x9e3779b9));
  const deco = Array.from({ length: 4 }, () => {
    const x = Math.round(r2() * 400);
    const y = Math.round(r2() * 400);
    const r = Math.round(30 + r2() * 70);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff" opacity="${(0.12 + r2() * 0.14).toFixed(2)}"/>`;
  }).join('');
  const grad = variant === 1 ? `x1="0" y1="0" x2="1" y2="1"` : `x1="1" y1="0" x2="0" y2="1"`;
  // Variant 2: different angle, slight zoom and offset.
  const iconTransform =
    variant === 1
      ? `translate(200 192) scale(1.32) translate(-100 -100)`
      : `translate(204 196) rotate(-12) scale(1.4) scale(-1 1) translate(-100 -100)`;
  const backdrop =
    variant === 1
      ? `<circle cx="200" cy="194" r="166" fill="#ffffff" opacity="0.45"/>`
      : `<rect x="40" y="40" width="320" height="320" rx="64" fill="#ffffff" opacity="0.38" transform="rotate(8 200 200)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
  <defs>
    <linearGradient id="bg" ${grad}><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></linearGradient>
    <filter id="sh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="10"/></filter>
  </defs>
  <rect width="400" height="400" fill="url(#bg)"/>
  ${deco}
  ${backdrop}
  <ellipse cx="200" cy="344" rx="130" ry="16" fill="${c.d}" opacity="0.22" filter="url(#sh)"/>
  <g transform="${iconTransform}">${ICONS[icon](c, (h >>> 9) % 997)}</g>
</svg>`;
}

export async function renderJpeg(svg: string, file: string): Promise<void> {
  await sharp(Buffer.from(svg)).resize(400, 400).jpeg({ quality: 78, mozjpeg: true }).toFile(file);
}
