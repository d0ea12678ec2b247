/**
 * The share-image scenarios of `npm run bench` (bench/run.ts): a cold render (every request a
 * different link, so a different ETag that neither the LRU nor the client holds) in each format,
 * and a cached one (the same URL again and again, as chat apps fetch a link's og:image).
 */
import { Like } from 'typeorm';
import { UserEntity } from '../api/src/users/entity.js';
import { shareImagePath } from '../api/src/sharing/urls.js';
import type { TestServer } from '../api/src/testing/server.js';
import type { LoadSpec } from './load.js';

/** Distinct links for the cold runs: far more than one run renders, and than the LRU keeps. */
const COLD_LINKS = 2000;
/** Rendering is CPU-bound: a few requests at a time show its latency, more only queue. */
const COLD_CONNECTIONS = 4;

type Base = Pick<LoadSpec, 'url' | 'duration' | 'warmup' | 'connections'>;

/** Usernames of seeded creators whose (receive) link is open. */
async function creators(server: TestServer, prefix: string): Promise<string[]> {
  const users = await server.deps.db.manager.find(UserEntity, {
    select: { username: true },
    where: { username: Like(`${prefix}%`) },
    take: COLD_LINKS,
  });
  return users.map((u) => u.username);
}

export async function shareImageScenarios(
  server: TestServer,
  base: Base,
  prefix = 'feed',
): Promise<{ scenario: string; spec: LoadSpec }[]> {
  const names = await creators(server, prefix);
  if (names.length === 0) throw new Error(`no seeded creators named ${prefix}…`);
  const hot = shareImagePath('link', names[0], 'standard', 'card');
  for (const p of [hot, shareImagePath('link', names[0], 'standard', 'story')]) {
    const res = await server.request('GET', p);
    if (res.status !== 200) throw new Error(`${p} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  const cold = (format: 'story' | 'card'): LoadSpec => ({
    ...base,
    connections: Math.min(base.connections, COLD_CONNECTIONS),
    kind: 'paths',
    path: shareImagePath('link', names[0], 'standard', format),
    // a different link each request (the template varies too), so every answer is drawn
    paths: names.map((n, i) => shareImagePath('link', n, i % 2 ? 'purple-gradient' : 'standard', format)),
  });
  return [
    { scenario: 'GET /links/{u}/image story (cold render)', spec: cold('story') },
    { scenario: 'GET /links/{u}/image card (cold render)', spec: cold('card') },
    { scenario: 'GET /links/{u}/image card (cached, LRU)', spec: { ...base, kind: 'get', path: hot } },
  ];
}
