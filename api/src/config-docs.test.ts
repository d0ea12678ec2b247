import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC, configDoc } from '../../scripts/config-docs.js';

describe('docs/CONFIG.md', () => {
  it('is what `npm run docs:config` makes from the configuration schema', async () => {
    const written = fs.readFileSync(CONFIG_DOC, 'utf8');
    expect(written, 'docs/CONFIG.md is stale: run `npm run docs:config`').toBe(await configDoc());
  });
});
