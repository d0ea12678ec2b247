import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocs } from './check-docs.js';

// A small repository of its own, so each wrong claim is the only thing that can fail.
let root: string;

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

const problemsOf = (doc: string) => {
  write('docs/GUIDE.md', doc);
  return checkDocs(root).map((p) => `${p.file}:${p.line}: ${p.message}`);
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  write('package.json', JSON.stringify({ scripts: { test: 'vitest', 'check:docs': 'tsx scripts/check-docs.ts' } }));
  write('api/src/config-schema.ts', 'export const configSchema = z.object({\n  DATABASE_URL: z.string(),\n});\n');
  write('api/src/money/idempotency.ts', 'export async function withIdempotency() {}\nexport const readIdempotencyKey = () => undefined;\n');
  write('api/src/money/ledger.ts', 'export function transfer() {}\n');
  write('api/src/links/routes.ts', 'import { withIdempotency } from "../money/idempotency.js";\n');
  write('README.md', '# Readme\n\n## The two commands\n\nSee [the guide](docs/GUIDE.md).\n');
  write('CONTRIBUTING.md', '# Contributing\n');
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('check:docs', () => {
  it('passes a doc whose every path, anchor, script, variable and symbol exists', () => {
    const doc = [
      '# Guide',
      '',
      'A give runs through `withIdempotency` in `money/idempotency.ts` and `transfer` in `api/src/money/ledger.ts`;',
      'each capability has `api/src/<capability>/routes.ts` (`api/src/links/…`). Set `DATABASE_URL=postgres://…`,',
      'run `npm run check:docs`, and read [the commands](../README.md#the-two-commands).',
      '',
      '```',
      'api/src/',
      '  money/     the ledger (ledger.ts) and keys (idempotency.ts)',
      '```',
    ].join('\n');
    expect(problemsOf(doc)).toEqual([]);
  });

  it('fails on a missing path and a missing symbol, naming the file and line', () => {
    const doc = [
      '# Guide',
      '',
      'The ledger lives in `api/src/money/ledgers.ts`.',
      '',
      'Keys go through `withIdempotentSteps` in `money/idempotency.ts`.',
    ].join('\n');
    expect(problemsOf(doc)).toEqual([
      'docs/GUIDE.md:3: api/src/money/ledgers.ts: no such file or folder',
      'docs/GUIDE.md:5: withIdempotentSteps is not in money/idempotency.ts',
    ]);
  });

  it('fails on a missing link, anchor, script, variable, tree entry and a citation from outside the repository', () => {
    const doc = [
      '# Guide',
      '',
      'See [missing](missing.md), [the commands](../README.md#the-three-commands), `npm run check:nothing`,',
      '`REDIS_URL`, and the house rules in STYLE.md.',
      '',
      '```',
      '  links/     commands (commands.ts)',
      '```',
    ].join('\n');
    expect(problemsOf(doc)).toEqual([
      'docs/GUIDE.md:3: link to missing.md: docs/missing.md does not exist',
      'docs/GUIDE.md:3: link to ../README.md#the-three-commands: README.md has no heading #the-three-commands',
      'docs/GUIDE.md:3: npm run check:nothing: no such script in package.json',
      'docs/GUIDE.md:4: cites STYLE.md, which is outside the repository',
      'docs/GUIDE.md:4: REDIS_URL: not a variable of api/src/config-schema.ts, nor read anywhere in the code',
      'docs/GUIDE.md:7: commands.ts (in links/): no such file or folder',
    ]);
  });

  it('fails on a code comment that cites the specification outside the repository', () => {
    write('api/src/money/ledger.ts', '// The one way money moves (DESIGN.md, "Money").\nexport function transfer() {}\n');
    expect(problemsOf('# Guide\n')).toEqual([
      'api/src/money/ledger.ts:1: cites DESIGN.md, which is outside the repository: name docs/DESIGN-RULES.md or docs/PRODUCT.md, or state the rule',
    ]);
    write('api/src/money/ledger.ts', 'export function transfer() {}\n');
  });
});
