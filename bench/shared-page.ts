/**
 * `npx tsx bench/shared-page.ts`: how long the server takes to answer a shared link page to a
 * signed-out browser (its preview tags and its first paint in `#root`), against a ceiling measured
 * in the same run: `/healthz` (the whole middleware stack and a `SELECT 1`) over the same HTTP.
 * One request at a time, so each figure is one answer's latency; the ratio page / healthz is what
 * stays comparable from one machine to another. Also the page head alone, in process (the database
 * read and the markup's render, no HTTP). SQLite, a fresh server. Options: --requests N (default 2000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { linkPreviews } from '../api/src/sharing/preview.js';
import { buildUser, startTestServer, BROWSER_USER_AGENT } from '../api/src/testing/server.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' } } });
const REQUESTS = Number(values.requests);
const WARM_UP = Math.ceil(REQUESTS / 5);

/** The shape of the built index.html the shared pages start from (as api/src/testing/pages.ts has it). */
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Giftlink</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <style>.whole-stylesheet{color:red}</style>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

/** Latencies (µs) of `run`, after WARM_UP unmeasured calls. */
async function timed(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await run();
  const out: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = process.hrtime.bigint();
    await run();
    out.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return out;
}

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-bench-web-'));
fs.writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
fs.mkdirSync(path.join(webDir, '.vite'));
fs.writeFileSync(path.join(webDir, '.vite', 'shared-page.json'), JSON.stringify({ stylesheet: '/assets/s.css', criticalCss: '.a{}' }));
const server = await startTestServer({ WEB_DIR: webDir, PUBLIC_URL: 'http://share.giftlink.test' });
try {
  const creator = await buildUser(server);
  const created = await server.request('POST', '/links/create', {
    token: creator.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 20 } },
  });
  if (created.status !== 201) throw new Error(`link not created: ${created.status}`);
  const page = `/link/${creator.user.username}`;
  const headers = { accept: 'text/html', 'user-agent': BROWSER_USER_AGENT };
  const get = (p: string) => async () => {
    const res = await fetch(server.url + p, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
    return body;
  };
  if (!(await get(page)()).includes('class="card link-hero"')) throw new Error('the link page has no markup');

  const head = linkPreviews(server.deps);
  const healthz = await timed(get('/healthz'));
  const pages = await timed(get(page));
  const heads = await timed(() => head(page, true));
  const row = (name: string, xs: number[]) =>
    console.log(`${name.padEnd(36)} median ${median(xs).toFixed(0).padStart(6)} µs   p95 ${p95(xs).toFixed(0).padStart(6)} µs`);
  row('GET /healthz (ceiling)', healthz);
  row(`GET ${page.replace(creator.user.username, '{u}')} (visitor)`, pages);
  row('page head in process (read + render)', heads);
  console.log(`link page / healthz: ${(median(pages) / median(healthz)).toFixed(2)}× (median latency, ${REQUESTS} requests each)`);
} finally {
  await server.close();
  fs.rmSync(webDir, { recursive: true, force: true });
}
