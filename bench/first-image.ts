/**
 * `npx tsx bench/first-image.ts`: how long a fresh link's share image takes to reach its first
 * byte, as the share modal asks for it right after Create, with the images drawn at creation
 * (SHARE_IMAGES_AT_CREATION=true) and without. Each mode runs in a process of its own: the first
 * link of a process also pays for loading the renderer (satori, sharp, fonts).
 *
 * Options: --links N (fresh links per mode, default 8), --delay MS (between the create answer
 * and the image request, default 0: the modal opens at once).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { numberArg } from './args.js';
import { buildUsers, startTestServer } from '../api/src/testing/server.js';
import { shareImagePath } from '../api/src/sharing/urls.js';

function option(name: string, fallback: number, min: number, max: number): number {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : numberArg(name, process.argv[i + 1], min, max);
}
const LINKS = Math.round(option('--links', 8, 1, 100));
const DELAY_MS = option('--delay', 0, 0, 10_000);

/** Milliseconds from the start of `res`'s request to its first body byte. */
async function firstByte(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url);
  const reader = res.body!.getReader();
  await reader.read();
  const ms = performance.now() - start;
  await reader.cancel();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function run(ahead: boolean): Promise<{ first: number; rest: number[] }> {
  const server = await startTestServer({ SHARE_IMAGES_AT_CREATION: ahead ? 'true' : 'false' });
  try {
    const users = await buildUsers(server, LINKS, ahead ? 'fia' : 'fib');
    const times: number[] = [];
    for (const [i, user] of users.entries()) {
      const created = await server.request('POST', '/links/create', {
        token: user.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 + i } },
      });
      if (created.status !== 201) throw new Error(`create answered ${created.status}`);
      if (DELAY_MS) await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      times.push(await firstByte(server.url + shareImagePath('link', user.user.username, 'standard', 'story')));
      // Let the card drawn ahead finish, as a person reads the modal before the next link.
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    return { first: times[0], rest: times.slice(1) };
  } finally {
    await server.close();
  }
}

const modeIndex = process.argv.indexOf('--mode');
if (modeIndex === -1) {
  console.log(`first story image byte of a fresh link: ${LINKS} links per mode, request ${DELAY_MS} ms after the create answer`);
  for (const mode of ['request', 'ahead']) {
    const args = [...process.argv.slice(2), '--mode', mode];
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) process.exit(code ?? 1);
  }
} else {
  const ahead = process.argv[modeIndex + 1] === 'ahead';
  const { first, rest } = await run(ahead);
  const label = ahead ? 'drawn at creation' : 'drawn on request';
  const others = rest.length ? `; later links median ${median(rest).toFixed(0)} ms (${rest.map((t) => t.toFixed(0)).join(', ')})` : '';
  console.log(`  ${label.padEnd(18)} first link of the process ${first.toFixed(0)} ms${others}`);
}
