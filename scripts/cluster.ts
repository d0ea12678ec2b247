/**
 * `npm run cluster`: three API nodes behind nginx on this machine's PostgreSQL and Redis, to try
 * the reference deployment (deploy/, docs/DEPLOY.md). Builds once as `npm start` does, prints
 * nginx's URL and the first invite; Ctrl-C stops everything.
 *
 * Options: --nodes N (default 3), --port P (nginx's; default a free one), --no-build,
 * --database-url URL (default postgres://postgres@127.0.0.1:5432/giftlink_cluster, created when
 * missing), --redis-url URL (default redis://127.0.0.1:6379; keys under REDIS_PREFIX giftlink_cluster).
 */
import path from 'node:path';
import { numberArg } from '../bench/args.js';
import { Cluster, build, ensureDatabase, untilInterrupted } from './cluster/cluster.js';

const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const nodes = Math.round(numberArg('--nodes', value('--nodes') ?? '3', 1, 16));
const port = value('--port');
const databaseUrl = value('--database-url') ?? 'postgres://postgres@127.0.0.1:5432/giftlink_cluster';
const redisUrl = value('--redis-url') ?? 'redis://127.0.0.1:6379';

if (!args.includes('--no-build')) build();
await ensureDatabase(databaseUrl);
const cluster = await Cluster.start({
  dir: path.resolve('.tmp/cluster'),
  nodes,
  port: port ? Math.round(numberArg('--port', port, 1, 65_535)) : undefined,
  databaseUrl,
  redisUrl,
  redisPrefix: 'giftlink_cluster',
});
console.log(`\nGiftlink runs at ${cluster.url} (nginx in front of ${nodes} API nodes: ${cluster.nodes.map((n) => n.port).join(', ')})`);
console.log(`Logs: .tmp/cluster/node*.log, .tmp/cluster/nginx/error.log`);
const invite = cluster.firstInvite();
if (invite) console.log(`\nNo accounts yet. Create the first one with this invite:\n\n  ${invite}\n`);
console.log('Ctrl-C stops the cluster.');
await untilInterrupted();
console.log('\nstopping…');
await cluster.stop();
