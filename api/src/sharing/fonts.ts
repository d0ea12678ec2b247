import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Font } from 'satori';

/** Inter (SIL Open Font License, resources/fonts/OFL.txt), copied from @fontsource/inter: latin and latin-ext. */
const WEIGHTS = [400, 600, 800] as const;
const SUBSETS = ['latin', 'latin-ext'] as const;

/**
 * resources/fonts of the repository, wherever the server is started from and whether it runs from
 * the sources (tsx) or compiled (dist/server/api/src/…): the nearest ancestor of this module that has it.
 */
export function fontsDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'resources', 'fonts');
    if (fs.existsSync(path.join(candidate, 'OFL.txt'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error("resources/fonts (the share images' fonts) not found");
  }
}

/** Reads the share images' fonts once (at start-up); satori reads .woff, not .woff2. */
export function loadFonts(dir = fontsDir()): Font[] {
  return WEIGHTS.flatMap((weight) =>
    SUBSETS.map((subset) => ({
      // one family per subset: satori falls back from one family to the next, not within one
      name: subset === 'latin' ? 'Inter' : 'Inter Ext',
      weight,
      style: 'normal' as const,
      data: fs.readFileSync(path.join(dir, `inter-${subset}-${weight}-normal.woff`)),
    })),
  );
}
