/**
 * `npm run trace:web [-- <page>…]`: what blocks the main thread while a page loads, the question
 * behind `npm run audit:web`'s Total Blocking Time. Starts the built product as audit:web does,
 * seeds the same user, and opens each page (login, home, link, wishlist; default all) in Debian's
 * Chromium on a phone-sized viewport, with the CPU slowed down 4× as Lighthouse's mobile profile
 * simulates it. Prints every long task (over 50 ms, slowed down) the browser reports, with the
 * functions that took most of it in a CPU profile of the same load, and the time they block after
 * the first contentful paint (what Total Blocking Time adds up). A measurement, not a test; the
 * figures move from run to run, so run it a few times. `npx vite build --config
 * renderer/vite.config.ts --minify false` first shows the functions by their own names.
 * TRACE_RUNS=<n> loads each page n times and prints the median; TRACE_TOP=<n> functions per task
 * (default 8); TRACE_SAVE=<dir> also writes `<page>.cpuprofile`.
 */
import fs from 'node:fs';
import { join as joinPath } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, startApp, VIEWPORTS } from '../e2e/harness.js';
import { PAGES, seed } from './audit-pages.js';

const SLOWDOWN = 4;
const TOP = Number(process.env.TRACE_TOP ?? 8);
const RUNS = Math.max(1, Number(process.env.TRACE_RUNS ?? 1));
/** The name of the function the page runs to line the profile's clock up with its own. */
const MARKER = '__traceClock';

interface Task {
  start: number;
  duration: number;
}

/** A CPU profile as Chrome's DevTools protocol answers `Profiler.stop` (the parts read here). */
interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Each sample's time (ms, the profile's clock), the function it was in, and the stack's function names. */
function samplesOf(profile: Profile): { at: number; ms: number; self: string; stack: Set<string> }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime / 1000;
  return samples.map((id, i) => {
    at += (deltas[i] ?? 0) / 1000;
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split('/').pop() ?? '';
    const self = frame.url ? `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}` : frame.functionName;
    const stack = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) stack.add(byId.get(up)!.callFrame.functionName);
    return { at, ms: (deltas[i + 1] ?? 0) / 1000, self, stack };
  });
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const app = await startApp();
  const browser = await launchBrowser();
  try {
    const ada = await seed(app);
    for (const [name, path] of PAGES(ada.username)) {
      if (wanted.length && !wanted.includes(name)) continue;
      const blocked: number[] = [];
      for (let run = 0; run < RUNS; run++) blocked.push(await trace(browser, app.url, name, path));
      const sorted = [...blocked].sort((a, b) => a - b);
      if (RUNS > 1)
        console.log(
          `\n${name}: blocking after the first paint, median of ${RUNS} runs: ${sorted[Math.floor(RUNS / 2)].toFixed(0)} ms (${blocked.map((b) => b.toFixed(0)).join(', ')})`,
        );
    }
  } finally {
    await browser.close();
    await app.stop();
  }
}

/** One load of `path` in a new context: prints its long tasks and answers how long they block after the first paint. */
async function trace(browser: Browser, origin: string, name: string, path: string): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: { start: number; duration: number }[] = [];
    (window as unknown as { __tasks: typeof seen }).__tasks = seen;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
  // A function of a known name, busy for a while at a known page time: where its samples start is that time.
  const marked = await page.evaluate(`(function ${MARKER}() {
    const t = performance.now();
    while (performance.now() - t < 20);
    return t;
  })()`);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  if (process.env.TRACE_SAVE) fs.writeFileSync(joinPath(process.env.TRACE_SAVE, `${name}.cpuprofile`), JSON.stringify(profile));
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
  const tasks = await page.evaluate(() => (window as unknown as { __tasks: Task[] }).__tasks);
  await context.close();

  const samples = samplesOf(profile);
  const markerAt = samples.find((s) => s.stack.has(MARKER))?.at;
  const offset = markerAt === undefined ? undefined : markerAt - Number(marked);
  console.log(`\n${name} ${path}: first contentful paint at ${fcp.toFixed(0)} ms (CPU slowed down ${SLOWDOWN}×)`);
  let blocking = 0;
  for (const task of tasks) {
    const blocks = task.start >= fcp ? task.duration - 50 : 0;
    blocking += blocks;
    console.log(
      `  task at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(0)} ms: ${task.start < fcp ? 'before the paint' : `blocks ${blocks.toFixed(0)} ms`}`,
    );
    if (offset === undefined) continue;
    const self = new Map<string, number>();
    for (const s of samples) {
      const t = s.at - offset;
      if (t >= task.start && t <= task.start + task.duration) self.set(s.self, (self.get(s.self) ?? 0) + s.ms);
    }
    for (const [fn, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${fn}`);
  }
  console.log(
    `  blocking after the first paint: ${blocking.toFixed(0)} ms${offset === undefined ? ' (the profile could not be lined up)' : ''}`,
  );
  return blocking;
}

await main();
