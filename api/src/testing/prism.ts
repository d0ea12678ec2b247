import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freePort as freeTestPort } from './commands.js';

/**
 * Stoplight Prism's validation proxy in front of a test server (`PRISM=1`, `npm run test:api:prism`):
 * `server.request(…)` goes through `prism proxy`, which forwards it to our server and checks the
 * answer against the server's own OpenAPI document (/api/openapi.json).
 *
 * Prism runs without `--errors`. With it, Prism answers a request it finds invalid with its own 422
 * and a path or method the document does not list with its own 404/405, before our server sees
 * them, and the suite sends bad input and unknown routes on purpose: those must get OUR answers.
 * Without it every request reaches our server, and Prism lists what it found in an `sl-violations`
 * header: request violations (the bad input the test meant to send) and response violations (an
 * answer that contradicts the document), which fail the request (`checkViolations`).
 */

const require = createRequire(import.meta.url);

export const prismEnabled = (): boolean => process.env.PRISM === '1';

export interface PrismProxy {
  url: string;
  close(): Promise<void>;
}

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** Starts `prism proxy` for `upstream` with the document it serves (or `document`), and waits until it answers. */
export async function startPrism(upstream: string, document?: string): Promise<PrismProxy> {
  document ??= await (await fetch(`${upstream}/api/openapi.json`)).text();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-prism-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, document);
  const port = Number(await freeTestPort());
  const bin = require.resolve('@stoplight/prism-cli/dist/index.js');
  // --cors=false: Prism would answer preflights itself and add CORS headers to every answer.
  const args = [
    bin,
    'proxy',
    file,
    upstream,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--errors=false',
    '--cors=false',
    '-v',
    'warn',
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test file that ends without close() (a failed beforeAll) leaves no proxy behind.
  const stop = () => child.kill();
  process.once('exit', stop);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism proxy exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`prism proxy did not answer within 60 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    close: async () => {
      process.off('exit', stop);
      if (child.exitCode === null) {
        child.kill();
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What Prism found wrong with the answer (`sl-violations`, locations starting with 'response'). */
export function responseViolations(headers: Headers): Violation[] {
  const raw = headers.get('sl-violations');
  if (!raw) return [];
  if (!raw.startsWith('[')) return [{ location: ['response'], severity: 'Error', message: raw }];
  return (JSON.parse(raw) as Violation[]).filter((v) => v.location[0] === 'response');
}

/**
 * Fails when Prism found the answer to contradict the document, naming the route and each
 * violation; else answers the headers without Prism's own (its request violations may quote input).
 */
export function checkViolations(method: string, target: string, status: number, headers: Headers, body = ''): Headers {
  // Our server never answers problem+json: this is Prism's own error (it could not forward the request).
  if (headers.get('content-type')?.startsWith('application/problem+json'))
    throw new Error(`Prism could not carry ${method} ${target}: ${status} ${body.slice(0, 500)}`);
  const violations = responseViolations(headers);
  if (violations.length === 0) {
    const copy = new Headers(headers);
    copy.delete('sl-violations');
    return copy;
  }
  const lines = violations.map((v) => `  ${v.severity} at ${v.location.join('.')}: ${v.message}`);
  throw new Error(`Prism: the answer to ${method} ${target} (${status}) contradicts the OpenAPI document:\n${lines.join('\n')}`);
}

/** How deeply a JSON text nests arrays and objects (brackets inside strings left out). */
function nesting(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

/**
 * Whether Prism can forward this body as it is: it re-reads a request body as JSON (or as text),
 * so a body that is not JSON (the suite's malformed JSON), nests deeper than its validator can
 * recurse (the suite's 5,000 levels: a RangeError in Prism) or is binary (a multipart upload)
 * goes to the server directly.
 */
export function prismCarries(body: RequestInit['body'], contentType: string | undefined): boolean {
  if (body === undefined) return true;
  if (typeof body !== 'string') return false;
  if (!/json/i.test(contentType ?? '')) return true;
  try {
    JSON.parse(body);
  } catch {
    return false;
  }
  return nesting(body) <= 100;
}
