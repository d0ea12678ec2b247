/**
 * The CPU time of each group of processes a request goes through, from /proc (bench/cpu.ts): the
 * API nodes, nginx (master and workers), PostgreSQL (the postmaster, its shared background
 * processes and the backends of our database only: other databases on the same server are not
 * ours), Redis (the redis-server on our port) and the load generator. The rest of the machine's
 * busy time (other programs, this process, the kernel's own) is `other`.
 */
import { commandLine, machineBusyUs, processStats, ticksToUs, type ProcessStat } from '../cpu.js';

export const GROUPS = ['api', 'nginx', 'postgres', 'redis', 'load'] as const;
export type Group = (typeof GROUPS)[number];

export interface Members {
  apiPids: number[];
  /** nginx's master: a child of this process (none when nginx is not in front). */
  nginxMaster?: number;
  postmaster: number;
  /** Our database's name, as PostgreSQL's backends show it in their titles. */
  database: string;
  redisPort: number;
  loadPid: number;
}

export interface Snapshot {
  ticks: Map<number, { group: Group; ticks: number }>;
  machineUs: number;
  at: number;
}

export type Spent = Record<Group | 'other' | 'machine', number>;

function groupOf(p: ProcessStat, m: Members): Group | undefined {
  if (m.apiPids.includes(p.pid)) return 'api';
  if (p.pid === m.loadPid) return 'load';
  if (p.comm === 'nginx' && m.nginxMaster !== undefined && (p.pid === m.nginxMaster || p.ppid === m.nginxMaster)) return 'nginx';
  if (p.comm === 'postgres' && (p.pid === m.postmaster || p.ppid === m.postmaster)) {
    if (p.pid === m.postmaster) return 'postgres';
    const title = ` ${commandLine(p.pid)} `;
    // A backend's title names its database and client ("… giftlink_x 127.0.0.1(5555) idle").
    if (title.includes(` ${m.database} `)) return 'postgres';
    if (!title.includes('(') && !title.includes(' worker ')) return 'postgres';
    return undefined;
  }
  if (p.comm === 'redis-server' && commandLine(p.pid).includes(`:${m.redisPort}`)) return 'redis';
  return undefined;
}

export function snapshot(m: Members): Snapshot {
  const ticks = new Map<number, { group: Group; ticks: number }>();
  for (const p of processStats()) {
    const group = groupOf(p, m);
    if (group) ticks.set(p.pid, { group, ticks: p.ticks });
  }
  return { ticks, machineUs: machineBusyUs(), at: performance.now() };
}

/** µs of CPU time of each group between two snapshots; a process that ended in between is not counted. */
export function spent(start: Snapshot, end: Snapshot): Spent {
  const out: Spent = { api: 0, nginx: 0, postgres: 0, redis: 0, load: 0, other: 0, machine: end.machineUs - start.machineUs };
  for (const [pid, { group, ticks }] of end.ticks) out[group] += ticksToUs(ticks - (start.ticks.get(pid)?.ticks ?? 0));
  out.other = Math.max(0, out.machine - GROUPS.reduce((sum, g) => sum + out[g], 0));
  return out;
}
