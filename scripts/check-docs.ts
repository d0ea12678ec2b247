// `npm run check:docs`: fails when README.md, CONTRIBUTING.md or docs/ name a file, folder, anchor, npm script,
// variable or symbol that the repository does not have, or cite a document from outside it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Heading, Nodes, Parents } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Where a doc's path may start besides the repository root and the doc's own folder: the docs name server and site files from these. */
const BASES = ['api/src', 'renderer/src'];

/** What a run, a build or the product writes: named by the docs, never in the repository. */
const GENERATED = /^(\.\/)?(dist|out|release|data|\.tmp|\.tools|test-results|node_modules|coverage|DATA_DIR)(\/|$)/;

/** Documents outside the repository that nothing may cite any more: their rules are in docs/DESIGN-RULES.md and docs/PRODUCT.md. */
const OUTSIDE_DOC = /\b(DESIGN|STYLE|SPEC)\.md\b|\.\.\/shared\b/;
/** The same in code, where `../shared/` is also electron's own folder and a bare SPEC cites the specification. */
const OUTSIDE_DOC_IN_CODE = '\\b(DESIGN|STYLE|SPEC)\\.md\\b|\\bSPEC\\b';

const SOURCE_EXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|sh|json|ya?ml|css|html)$/;
const PATH_TOKEN = /^\.?[\w@.-]+(\/[\w@.<>{}…*-]*)+$|^[\w@.-]+\.(ts|tsx|mts|cts|mjs|cjs|md|sh|ya?ml|css)$/;
const MEDIA_TYPE = /^(application|text|image|audio|video|multipart|font)\//;
const ENV_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
const SYMBOL = /^([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))*(\(.*\))?$/;
/** The words allowed between a symbol and the path that holds it: "`x` in `a/b.ts`", "(`x`, `a/b.ts`)". */
const SYMBOL_BEFORE_PATH = /^\s*(in|from|of|,)?\s*\(?\s*$/;

interface Repo {
  root: string;
  /** Every file and folder, relative to the root, with forward slashes. */
  entries: Set<string>;
  /** Each file name, with the paths that have it. */
  basenames: Map<string, string[]>;
  scripts: Set<string>;
  configVars: Set<string>;
  /** Which of `words` the code (not the docs) uses: one `git grep` for all of them. */
  usedInCode(words: string[]): Set<string>;
  read(rel: string): string;
}

function gitFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 64 << 20 });
  return out
    .toString('utf8')
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(root, f)));
}

function loadRepo(root: string): Repo {
  const files = gitFiles(root);
  const entries = new Set<string>();
  const basenames = new Map<string, string[]>();
  for (const file of files) {
    const base = path.posix.basename(file);
    basenames.set(base, [...(basenames.get(base) ?? []), file]);
    for (let p = file; p !== '.' && !entries.has(p); p = path.posix.dirname(p)) entries.add(p);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const schemaFile = path.join(root, 'api/src/config-schema.ts');
  const schema = fs.existsSync(schemaFile) ? fs.readFileSync(schemaFile, 'utf8') : '';
  const configVars = new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));
  const cache = new Map<string, string>();
  const read = (rel: string) => {
    let text = cache.get(rel);
    if (text === undefined) {
      text = fs.readFileSync(path.join(root, rel), 'utf8');
      cache.set(rel, text);
    }
    return text;
  };
  const usedInCode = (words: string[]) => {
    if (words.length === 0) return new Set<string>();
    const args = ['grep', '-h', '-o', '-w', '-I', '--untracked', '-F', ...words.flatMap((w) => ['-e', w])];
    const code = ['*.ts', '*.tsx', '*.mjs', '*.cjs', '*.js', '*.sh', '*.yml', '*.yaml', ':!resources/'];
    try {
      return new Set(
        execFileSync('git', [...args, '--', ...code], { cwd: root, maxBuffer: 64 << 20 })
          .toString('utf8')
          .split('\n'),
      );
    } catch {
      return new Set<string>(); // git grep exits 1 when nothing matches
    }
  };
  return { root, entries, basenames, scripts: new Set(Object.keys(pkg.scripts ?? {})), configVars, usedInCode, read };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function slugs(tree: Nodes): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  visit(tree, (node) => {
    if (node.type !== 'heading') return;
    const base = toString(node as Heading)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  });
  return out;
}

function visit(node: Nodes, fn: (node: Nodes, parent?: Parents) => void, parent?: Parents) {
  fn(node, parent);
  if ('children' in node) for (const child of node.children) visit(child, fn, node);
}

const parse = (text: string) => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** A doc path as a pattern: `<capability>`, `{username}`, `…` and `*` stand for one name or more. */
function pathPattern(token: string): RegExp | undefined {
  if (!/[<{…*]/.test(token)) return undefined;
  const source = token
    .replace(/\/$/, '')
    .split(/(<[^>]*>|\{[^}]*\}|…|\*)/)
    .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}(/.*)?$`);
}

/** The repository paths a doc's path names, tried from the root, the doc's folder and BASES; empty when none exists. */
function resolvePath(repo: Repo, docDir: string, token: string): string[] {
  const clean = token.replace(/^\.\//, '').replace(/\/$/, '');
  const candidates = [clean, path.posix.normalize(path.posix.join(docDir, clean)), ...BASES.map((b) => `${b}/${clean}`)];
  if (!token.includes('/')) return repo.basenames.get(clean) ?? [];
  const found = new Set<string>();
  for (const candidate of candidates) {
    const pattern = pathPattern(candidate);
    if (!pattern) {
      if (repo.entries.has(candidate)) found.add(candidate);
    } else {
      for (const entry of repo.entries) if (pattern.test(entry)) found.add(entry);
    }
  }
  return [...found];
}

/** Whether `rel` (a file, or any file under a folder) declares `name`: a binding, a class member or a method, not a mere use or an object's key. */
function defines(repo: Repo, rel: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  const declared = new RegExp(
    `\\b(const|let|var|function\\*?|class|interface|type|enum|namespace)\\s+${n}\\b|^\\s*(export\\s+)?((public|private|protected|static|readonly|async|get|set|override)\\s+)*${n}\\s*[(<=]|export\\s*\\{[^}]*\\b${n}\\b`,
    'm',
  );
  const files = fs.statSync(path.join(repo.root, rel)).isFile()
    ? [rel]
    : [...repo.entries].filter((e) => e.startsWith(`${rel}/`) && SOURCE_EXT.test(e) && fs.statSync(path.join(repo.root, e)).isFile());
  return files.some((f) => declared.test(repo.read(f)));
}

function isPathToken(root: string, token: string): boolean {
  if (!PATH_TOKEN.test(token) || MEDIA_TYPE.test(token) || GENERATED.test(token) || /^[A-Z][A-Z0-9_]*\//.test(token)) return false;
  // An npm package (`preact/compat`, `@types/node`) is not a path of ours.
  return !/^[@a-z]/.test(token) || !token.includes('/') || !fs.existsSync(path.join(root, 'node_modules', token));
}

/** A name the code must use somewhere, checked for all docs at once. */
interface WordClaim {
  word: string;
  problem: Problem;
}

/** The problems of one doc, `rel` relative to the repository's root; names the code must use go to `words`. */
function checkDoc(repo: Repo, rel: string, text: string, anchorsOf: (rel: string) => Set<string>, words: WordClaim[]): Problem[] {
  const problems: Problem[] = [];
  const docDir = path.posix.dirname(rel);
  const tree = parse(text);
  const report = (node: Nodes, message: string) => problems.push({ file: rel, line: node.position?.start.line ?? 0, message });

  text.split('\n').forEach((line, i) => {
    const m = OUTSIDE_DOC.exec(line);
    if (m) problems.push({ file: rel, line: i + 1, message: `cites ${m[0]}, which is outside the repository` });
  });

  const checkScripts = (node: Nodes, value: string) => {
    for (const m of value.matchAll(/\bnpm run ([\w:.-]+)/g)) {
      if (!repo.scripts.has(m[1])) report(node, `npm run ${m[1]}: no such script in package.json`);
    }
  };

  // An annotated folder tree: each line's first word is a file or folder, and the files its note names are in that folder.
  const checkTree = (block: string, firstLine: number) => {
    block.split('\n').forEach((line, i) => {
      const [head = '', ...rest] = line.trim().split(/\s+/);
      const at = { file: rel, line: firstLine + 1 + i };
      if (!head.endsWith('/') && !/\.\w+$/.test(head)) return;
      if (isPathToken(repo.root, head) && resolvePath(repo, docDir, head).length === 0)
        problems.push({ ...at, message: `${head}: no such file or folder` });
      const note = rest.join(' ');
      for (const m of note.matchAll(/(?<![\w/.-])([\w.-]+\/)*[\w-]+\.(ts|tsx|md|cjs|mjs|sh|json)\b/g)) {
        const named = m[0].includes('/') || !head.endsWith('/') ? m[0] : `${head}${m[0]}`;
        if (isPathToken(repo.root, named) && resolvePath(repo, docDir, named).length === 0) {
          problems.push({ ...at, message: `${m[0]}${named === m[0] ? '' : ` (in ${head})`}: no such file or folder` });
        }
      }
    });
  };

  visit(tree, (node, parent) => {
    if (node.type === 'link') {
      const url = node.url;
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return;
      const [target, anchor] = url.split('#');
      const targetRel = target ? path.posix.normalize(path.posix.join(docDir, decodeURI(target))).replace(/\/$/, '') : rel;
      if (target && !repo.entries.has(targetRel)) return report(node, `link to ${url}: ${targetRel} does not exist`);
      if (anchor && targetRel.endsWith('.md') && !anchorsOf(targetRel).has(anchor)) {
        report(node, `link to ${url}: ${targetRel} has no heading #${anchor}`);
      }
      return;
    }
    if (node.type === 'code') {
      checkScripts(node, node.value);
      if (!node.lang || node.lang === 'text') checkTree(node.value, node.position?.start.line ?? 0);
      return;
    }
    if (node.type !== 'inlineCode') return;
    const value = node.value.trim();
    checkScripts(node, value);

    for (const token of value.split(/\s+/)) {
      const name = token.split('=')[0];
      if (ENV_NAME.test(name) && !repo.configVars.has(name)) {
        const message = `${name}: not a variable of api/src/config-schema.ts, nor read anywhere in the code`;
        words.push({ word: name, problem: { file: rel, line: node.position?.start.line ?? 0, message } });
      }
      if (isPathToken(repo.root, token) && resolvePath(repo, docDir, token).length === 0) report(node, `${token}: no such file or folder`);
    }

    const symbol = SYMBOL.exec(value);
    if (!symbol || !parent || isPathToken(repo.root, value) || /\.(ts|tsx|md|json|js)$/.test(value)) return;
    const name = value.replace(/\(.*$/, '').split('.').pop() as string;
    // A call written as `name()` must be one of ours (snake_case names are other languages', PromQL's or SQL's).
    if (symbol[3] !== undefined && !name.includes('_')) {
      words.push({
        word: name,
        problem: { file: rel, line: node.position?.start.line ?? 0, message: `${value}: ${name} is in no source file` },
      });
    }
    const siblings = parent.children as Nodes[];
    const i = siblings.indexOf(node);
    const between = siblings[i + 1];
    const next = siblings[i + 2];
    if (between?.type !== 'text' || next?.type !== 'inlineCode' || !SYMBOL_BEFORE_PATH.test(between.value)) return;
    if (!isPathToken(repo.root, next.value)) return;
    const holders = resolvePath(repo, docDir, next.value);
    const dotted = value.replace(/\(.*$/, '');
    // `protocol.handle` is a library's member that the file calls; a plain name or `Class.method` must be declared there.
    const found =
      dotted.includes('.') && !/^[A-Z]/.test(dotted)
        ? (h: string) => fs.statSync(path.join(repo.root, h)).isFile() && repo.read(h).includes(dotted)
        : (h: string) => defines(repo, h, name);
    if (holders.length > 0 && !holders.some(found)) report(node, `${name} is not in ${next.value}`);
  });
  return problems;
}

/** README.md, CONTRIBUTING.md and every doc under docs/. */
function docFiles(repo: Repo): string[] {
  return [...repo.entries]
    .filter((e) => e === 'README.md' || e === 'CONTRIBUTING.md' || (e.startsWith('docs/') && e.endsWith('.md')))
    .sort();
}

/** Every problem of the repository's docs, and every citation in its code of a document outside it. */
export function checkDocs(root: string): Problem[] {
  const repo = loadRepo(root);
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (rel: string) => {
    let set = anchors.get(rel);
    if (!set) {
      set = slugs(parse(repo.read(rel)));
      anchors.set(rel, set);
    }
    return set;
  };
  const docs = docFiles(repo);
  const words: WordClaim[] = [];
  const problems = docs.flatMap((rel) => checkDoc(repo, rel, repo.read(rel), anchorsOf, words));
  const used = repo.usedInCode([...new Set(words.map((w) => w.word))]);
  problems.push(...words.filter((w) => !used.has(w.word)).map((w) => w.problem));
  problems.push(...outsideCitationsInCode(root, new Set(docs)));
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return problems;
}

function outsideCitationsInCode(root: string, docs: Set<string>): Problem[] {
  let out = '';
  try {
    out = execFileSync('git', ['grep', '-n', '-I', '--untracked', '-E', OUTSIDE_DOC_IN_CODE], { cwd: root }).toString('utf8');
  } catch {
    return []; // git grep exits 1 when nothing matches
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => /^([^:]+):(\d+):(.*)$/.exec(line))
    .filter(
      (m): m is RegExpExecArray =>
        m !== null && !docs.has(m[1]) && m[1] !== 'scripts/check-docs.ts' && m[1] !== 'scripts/check-docs.test.ts',
    )
    .map((m) => ({
      file: m[1],
      line: Number(m[2]),
      message: `cites ${/\b\w+(\.md)?\b/.exec(m[3].slice(m[3].search(/DESIGN|STYLE|SPEC/)))?.[0]}, which is outside the repository: name docs/DESIGN-RULES.md or docs/PRODUCT.md, or state the rule`,
    }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = checkDocs(root);
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  const took = `${Math.round(performance.now() - started)} ms`;
  if (problems.length > 0) {
    console.error(`check:docs: ${problems.length} claim(s) the repository does not back (${took})`);
    process.exit(1);
  }
  console.log(`check:docs: every path, anchor, script, variable and symbol the docs name exists (${took})`);
}
