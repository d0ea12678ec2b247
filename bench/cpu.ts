/**
 * Where a run's CPU went, from Linux's /proc (what the ceiling of a path really is).
 *
 * On a small machine the server, PostgreSQL and the load generator share the CPUs, so once they
 * are all busy a path's requests/s is the machine's CPU time over what one request costs all of
 * them together. Beside the server's own CPU time (bench/run.ts, from `process.cpuUsage`), this
 * measures PostgreSQL's (every process named `postgres`: the backends of the server's connections,
 * its WAL writer and checkpointer) and the whole machine's (busy time in /proc/stat), so the
 * table can say what a request costs outside the server too. Elsewhere than Linux it measures
 * nothing and the columns stay empty.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface CpuSnapshot {
  /** Busy clock ticks of all CPUs (user, nice, system, irq, softirq). */
  machine: number;
  /** Clock ticks (user + system) of each `postgres` process, by pid. */
  postgres: Map<number, number>;
}

export interface CpuSpent {
  /** µs of CPU time of the whole machine. */
  machineUs: number;
  /** µs of CPU time of PostgreSQL's processes. */
  postgresUs: number;
}

const linux = process.platform === 'linux' && fs.existsSync('/proc/stat');
let ticksPerSecond: number | undefined;
function usPerTick(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return 1e6 / ticksPerSecond;
}

function machineTicks(): number {
  // cpu  user nice system idle iowait irq softirq steal …
  const [, user, nice, system, , , irq, softirq, steal] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  return user + nice + system + irq + softirq + (steal || 0);
}

export interface ProcessStat {
  pid: number;
  ppid: number;
  /** The executable's name (`postgres`, `nginx`, `node`). */
  comm: string;
  /** Clock ticks of CPU time, user + system, of all its threads. */
  ticks: number;
}

/** Every process, from /proc/<pid>/stat (empty elsewhere than Linux). */
export function processStats(): ProcessStat[] {
  if (!linux) return [];
  const all: ProcessStat[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    // After "pid (comm) ": state is field 3, ppid 4, utime 14 and stime 15.
    const fields = stat.slice(close + 2).split(' ');
    all.push({
      pid: Number(entry),
      ppid: Number(fields[1]),
      comm: stat.slice(open + 1, close),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  return all;
}

/** A process's command line (its title, for PostgreSQL's backends), or '' once it is gone. */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** µs of CPU time in `ticks` clock ticks. */
export const ticksToUs = (ticks: number) => ticks * usPerTick();

/** The whole machine's busy CPU time so far, in µs. */
export const machineBusyUs = () => (linux ? ticksToUs(machineTicks()) : 0);

function postgresTicks(): Map<number, number> {
  return new Map(processStats().flatMap((p) => (p.comm === 'postgres' ? [[p.pid, p.ticks] as const] : [])));
}

export function cpuSnapshot(): CpuSnapshot | undefined {
  if (!linux) return undefined;
  return { machine: machineTicks(), postgres: postgresTicks() };
}

/** CPU time spent since `start`. A PostgreSQL process that ended in between is not counted. */
export function cpuSince(start: CpuSnapshot | undefined): CpuSpent | undefined {
  const end = cpuSnapshot();
  if (!start || !end) return undefined;
  let postgres = 0;
  for (const [pid, ticks] of end.postgres) postgres += ticks - (start.postgres.get(pid) ?? 0);
  const us = usPerTick();
  return { machineUs: (end.machine - start.machine) * us, postgresUs: postgres * us };
}
