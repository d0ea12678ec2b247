/**
 * Generates the embedded marketplace catalogue (an offline stand-in for eBay's Browse API):
 *   resources/catalog/products.json
 *   resources/catalog/images/<slug>.jpg and <slug>-2.jpg (400x400 flat illustrations)
 *
 * Deterministic: all choices come from a seeded PRNG, so re-running produces identical output.
 * Illustrations are SVG shapes only (no <text>), so rendering does not depend on installed fonts.
 *
 * The parts live in scripts/catalog/: the source data (categories/, by category group), the icon
 * shapes (icons/), the PRNG (random.ts), product assembly (products.ts) and rendering (render.ts).
 *
 * Regenerate with: npx tsx scripts/gen-catalog.ts
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProducts } from './catalog/products.js';
import { renderJpeg, svgFor } from './catalog/render.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'resources', 'catalog');
const IMG_DIR = path.join(OUT_DIR, 'images');

async function main(): Promise<void> {
  const generated = buildProducts();

  await mkdir(IMG_DIR, { recursive: true });
  // Remove stale images from previous runs.
  for (const f of await readdir(IMG_DIR)) if (f.endsWith('.jpg')) await rm(path.join(IMG_DIR, f));

  const jobs: (() => Promise<void>)[] = [];
  for (const { product, icon, slug } of generated) {
    for (const variant of [1, 2] as const) {
      const file = path.join(IMG_DIR, `${slug}${variant === 2 ? '-2' : ''}.jpg`);
      jobs.push(() => renderJpeg(svgFor(icon, product.itemId, variant), file));
    }
  }
  const CONCURRENCY = 8;
  for (let k = 0; k < jobs.length; k += CONCURRENCY) await Promise.all(jobs.slice(k, k + CONCURRENCY).map((j) => j()));

  const products = generated.map((g) => g.product);
  await writeFile(path.join(OUT_DIR, 'products.json'), JSON.stringify(products, null, 2) + '\n');

  const counts = new Map<string, number>();
  for (const p of products) counts.set(p.category, (counts.get(p.category) ?? 0) + 1);
  console.log(`Wrote ${products.length} products and ${jobs.length} images to ${path.relative(ROOT, OUT_DIR)}`);
  for (const [k, v] of counts) console.log(`  ${k}: ${v}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
