/**
 * Precompresses the built website (after `vite build`): writes `file.br` (brotli, best quality) and
 * `file.gz` (gzip -9) beside every text file worth it, so the server (api/src/http/web.ts) answers
 * them as they are and compresses nothing per request. A variant that is not smaller is not written.
 *   tsx scripts/precompress.ts [dir]   (default dist/web)
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|map|txt|xml|webmanifest|ico|wasm)$/i;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield full;
  }
}

async function precompress(file: string): Promise<{ size: number; br: number; gz: number }> {
  const data = await fs.promises.readFile(file);
  const variants = {
    br: await brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz: await gzip(data, { level: 9 }),
  };
  const sizes = { size: data.length, br: data.length, gz: data.length };
  for (const [suffix, encoded] of Object.entries(variants) as ['br' | 'gz', Buffer][]) {
    const target = `${file}.${suffix}`;
    if (encoded.length < data.length) {
      await fs.promises.writeFile(target, encoded);
      sizes[suffix] = encoded.length;
    } else await fs.promises.rm(target, { force: true });
  }
  return sizes;
}

const dir = path.resolve(process.argv[2] ?? 'dist/web');
const all = [...files(dir)];
const totals = { size: 0, br: 0, gz: 0 };
for (const file of all) {
  const sizes = await precompress(file);
  totals.size += sizes.size;
  totals.br += sizes.br;
  totals.gz += sizes.gz;
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `precompressed ${all.length} files in ${path.relative(process.cwd(), dir) || '.'}: ${kb(totals.size)} → br ${kb(totals.br)}, gzip ${kb(totals.gz)}`,
);
