/**
 * The ceiling of concurrent gives, measured in the same run as the gives themselves
 * ("what the ceiling really is").
 *
 * The give command alone — `giveToLink` in its unit of work (`runUnitOfWork`), in the server's own
 * process, with no HTTP, no session lookup, no validation and no JSON, as many at a time as
 * autocannon has connections — costs
 * the database's work of a give (its reads, statements and COMMIT) and the command's own code. A
 * give over HTTP costs at least that plus what a whole `/healthz` costs (the HTTP, the middleware,
 * a query). So where the server's one thread bounds both (SQLite), gives can reach at most
 * healthz / (healthz + command) of `/healthz`'s requests a second, from the server's CPU per
 * request; where the machine's CPUs bound them (PostgreSQL), the same from the machine's CPU
 * (the server's and PostgreSQL's processes). The goal is within this design's reach only where that
 * share is above it.
 */
import { LinkResponseEntity } from '../api/src/links/entity.js';
import { giveToLink } from '../api/src/links/give-to-link.js';
import { planGive } from '../api/src/links/give-check.js';
import { presentGive } from '../api/src/links/routes.js';
import { runUnitOfWork } from '../api/src/http/unit-of-work.js';
import { In } from 'typeorm';
import { UserEntity } from '../api/src/users/entity.js';
import type { TestServer, TestUser } from '../api/src/testing/server.js';
import { cpuSince, cpuSnapshot } from './cpu.js';
import type { DbName } from './report.js';

/** Gives run alone, after WARM_UP more that are not measured. */
const COMMANDS = 4000;
const WARM_UP = 400;

export interface GiveCeiling {
  /** Gives the command made in the measured part. */
  gives: number;
  /** CPU per give of the command alone: the server's process, PostgreSQL's processes (Linux). */
  serverCpuUs: number;
  postgresCpuUs?: number;
  /** What the share is measured against: a `/healthz`'s CPU, the server's on SQLite, the machine's on PostgreSQL. */
  healthzUs?: number;
  /** The most of `/healthz`'s requests a second gives can reach (see above); undefined without /proc on PostgreSQL. */
  share?: number;
  /** SQLite: gives per COMMIT of the writer's groups (db/group-commit.ts) in the measured part. */
  givesPerCommit?: number;
}

/** CPU per request of the same run's `/healthz`: the server's, and the whole machine's. */
export interface HealthzCost {
  serverCpuUs?: number;
  machineCpuUs?: number;
}

/**
 * Runs the give command alone on the distinct (giver, link) pairs the HTTP gives left unused
 * (walking them down from the last one; the load generator walks them up), and answers its cost and
 * the ceiling it sets, or why it could not run.
 */
export async function measureGiveCeiling(
  database: DbName,
  server: TestServer,
  givers: TestUser[],
  linkIds: string[],
  amountCents: number,
  healthz: HealthzCost,
  concurrency: number,
): Promise<GiveCeiling | string> {
  const { db } = server.deps;
  const pairs = givers.length * linkIds.length;
  const used = await db.manager.countBy(LinkResponseEntity, { kind: 'give' });
  if (used + COMMANDS + WARM_UP > pairs) return `only ${pairs - used} unused giver-link pairs left (a shorter --duration leaves more)`;
  const users = new Map((await db.manager.findBy(UserEntity, { id: In(givers.map((g) => g.user._id)) })).map((u) => [u.id, u]));
  let k = pairs;
  const give = async () => {
    k -= 1;
    const giver = users.get(givers[k % givers.length].user._id)!;
    const input = { postId: linkIds[k % linkIds.length], amountCents };
    const plan = await planGive(db, giver, input);
    const request = { userId: giver.id, scope: 'links.give', input, replayable: true };
    const answer = await runUnitOfWork(server.deps, undefined, request, (uow) => giveToLink(uow, giver, plan, undefined), presentGive);
    if (answer.status !== 201) throw new Error(`the give command answered ${answer.status}`);
  };
  /** `count` gives, `concurrency` at a time (the bench's connections). */
  const run = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left > 0) {
          left -= 1;
          await give();
        }
      }),
    );
  };
  await run(WARM_UP);
  const server0 = process.cpuUsage();
  const others0 = cpuSnapshot();
  const commits0 = db.commits;
  await run(COMMANDS);
  const commits = db.commits === undefined || commits0 === undefined ? undefined : db.commits - commits0;
  const spent = process.cpuUsage(server0);
  const others = cpuSince(others0);
  const serverCpuUs = (spent.user + spent.system) / COMMANDS;
  const postgresCpuUs = others && database === 'postgres' ? others.postgresUs / COMMANDS : undefined;
  const healthzUs = database === 'sqlite' ? healthz.serverCpuUs : healthz.machineCpuUs;
  const commandUs = database === 'sqlite' ? serverCpuUs : postgresCpuUs === undefined ? undefined : serverCpuUs + postgresCpuUs;
  const share = healthzUs && commandUs !== undefined ? healthzUs / (healthzUs + commandUs) : undefined;
  return { gives: COMMANDS, serverCpuUs, postgresCpuUs, healthzUs, share, givesPerCommit: commits ? COMMANDS / commits : undefined };
}
