/** The bench's command line and the table it prints (bench/run.ts runs the scenarios). */
import { numberArg } from './args.js';
import type { GiveCeiling } from './ceiling.js';
import type { LoadResult } from './load.js';

export type DbName = 'sqlite' | 'postgres';

export interface Options {
  only?: DbName;
  /** Also ANALYZE the SQLite database after seeding (PostgreSQL is always analysed, as autovacuum would). */
  analyze: boolean;
  duration: number;
  connections: number;
  warmup: number;
  /** Only the scenarios whose name contains one of these (the ceiling always runs). */
  scenarios?: string[];
  /** The server keeps its metrics (METRICS_PORT), to measure what they cost. */
  metrics: boolean;
}

export interface Row extends LoadResult {
  database: DbName;
  scenario: string;
  /** requests/s over the /healthz ceiling's requests/s on the same database. */
  ratioToCeiling: number | null;
  /** Gives only: what the database holds after the run. */
  check?: { recorded: number; counted: number; inFlightSlack: number; ledgerOk: boolean; ok: boolean };
  /** Gives only: the give command alone and the ceiling it sets (bench/ceiling.ts), or why it did not run. */
  giveCeiling?: GiveCeiling | string;
  /** Gives only, SQLite: gives per COMMIT of the writer's groups over the run. */
  givesPerCommit?: number;
}

export function parseArgs(argv: string[]): Options {
  const opts: Options = { duration: 6, connections: 32, warmup: 1, analyze: false, metrics: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--only') {
      const v = value();
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--only must be sqlite or postgres');
      opts.only = v;
    } else if (flag === '--duration') opts.duration = numberArg('--duration', value(), 1, 600);
    else if (flag === '--connections') opts.connections = Math.round(numberArg('--connections', value(), 1, 1000));
    else if (flag === '--warmup') opts.warmup = numberArg('--warmup', value(), 0, 60);
    else if (flag === '--analyze') opts.analyze = true;
    else if (flag === '--metrics') opts.metrics = true;
    else if (flag === '--scenario') opts.scenarios = value().split(',').filter(Boolean);
    else if (flag === '--help' || flag === '-h') {
      console.log(
        'npm run bench -- [--only sqlite|postgres] [--duration N] [--connections N] [--warmup N] [--analyze] [--metrics] [--scenario feed,gives,...]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${argv[i]} (try --help)`);
  }
  return opts;
}

/**
 * Beside the server's CPU time per request: PostgreSQL's, the load generator's and the whole
 * machine's (bench/cpu.ts), and how many CPUs were busy. Once the machine's CPUs are all busy, a
 * path's requests/s is their time over the machine's CPU per request, wherever it is spent.
 */
const CPU_HEADER = ['postgres µs/req', 'load µs/req', 'machine µs/req', 'busy CPUs'];

/** autocannon records latency in whole milliseconds. */
const ms = (v: number) => (v < 1 ? '<1' : v.toFixed(0));

export function printTable(rows: Row[]): void {
  const header = ['database', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'vs ceiling', 'server CPU µs/req', ...CPU_HEADER];
  const us = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(0));
  const lines = rows.map((r) => [
    r.database,
    r.scenario,
    r.requestsPerSecond.toFixed(0),
    ms(r.latencyP50),
    ms(r.latencyP99),
    `${r.errors}/${r.non2xx}`,
    r.ratioToCeiling === null ? '-' : `${(r.ratioToCeiling * 100).toFixed(0)}%`,
    us(r.serverCpuUs),
    r.database === 'postgres' ? us(r.postgresCpuUs) : '-',
    us(r.loadCpuUs),
    us(r.machineCpuUs),
    r.busyCpus === undefined ? '-' : r.busyCpus.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  const fmt = (cells: string[]) => cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(fmt(l));
  for (const r of rows) {
    const details = [
      r.non2xx ? `non-2xx: ${JSON.stringify(Object.keys(r.errorCodes).length ? r.errorCodes : r.statusCodes)}` : '',
      r.timeouts ? `timeouts: ${r.timeouts}` : '',
      r.check && !r.check.ok ? `CHECK FAILED ${JSON.stringify(r.check)}` : '',
      r.pairsExhausted ? `ran out of distinct giver-link pairs (${r.pairsExhausted} repeats of ${r.pairsAvailable})` : '',
    ].filter(Boolean);
    if (details.length) console.log(`  ${r.database} ${r.scenario}: ${details.join('; ')}`);
  }
}

/** This bench's goals: a path's requests/s as a share of `/healthz`'s, on each database. */
const GOALS: { path: string; scenario: string; goal: Record<DbName, number> }[] = [
  { path: 'static file (/favicon.svg)', scenario: 'GET /favicon.svg', goal: { sqlite: 0.8, postgres: 0.8 } },
  { path: 'feed page 1 (10,000 links)', scenario: 'GET /links/all', goal: { sqlite: 0.4, postgres: 0.3 } },
  // The inbox's first page costs no more than the feed's: the same goal.
  { path: 'inbox page 1 (200 conversations)', scenario: 'GET /conversations/{id} (inbox page 1', goal: { sqlite: 0.4, postgres: 0.3 } },
  { path: 'concurrent gives', scenario: 'POST /statuses/api/gives', goal: { sqlite: 0.15, postgres: 0.1 } },
];

/** The goals table: each measured path's share of the ceiling beside its goal, met or not. */
export function printGoals(rows: Row[]): void {
  const pct = (v: number) => `${(v * 100).toFixed(0)}%`;
  const lines = GOALS.flatMap(({ path, scenario, goal }) => {
    const cells = (['sqlite', 'postgres'] as const).map((db) => {
      const ratio = rows.find((r) => r.database === db && r.scenario.startsWith(scenario))?.ratioToCeiling;
      return ratio == null ? '-' : `${pct(ratio)} ${ratio >= goal[db] ? 'met' : 'NOT met'}`;
    });
    return cells.every((c) => c === '-') ? [] : [[path, ...cells, `>= ${pct(goal.sqlite)} / ${pct(goal.postgres)}`]];
  });
  if (!lines.length) return;
  const header = ['path', 'sqlite', 'postgres', 'goal (sqlite / postgres)'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(fmt(l));
  printGiveCeilings(rows);
}

/** Each database's ceiling for gives, from the give command alone (bench/ceiling.ts), beside what gives reached. */
function printGiveCeilings(rows: Row[]): void {
  const perCommit = (n: number | undefined) => (n === undefined ? '' : `, ${n.toFixed(1)} a COMMIT`);
  for (const r of rows) {
    const c = r.giveCeiling;
    if (c === undefined) continue;
    if (typeof c === 'string') {
      console.log(`  ${r.database}: the give command alone did not run: ${c}`);
      continue;
    }
    const healthz = c.healthzUs?.toFixed(0) ?? '?';
    const cost =
      r.database === 'sqlite'
        ? `a /healthz ${healthz} µs of the server's thread + the give command alone ${c.serverCpuUs.toFixed(0)} µs${perCommit(c.givesPerCommit)}`
        : `a /healthz ${healthz} µs of the machine + the give command alone ${c.serverCpuUs.toFixed(0)} µs ` +
          `of the server and ${c.postgresCpuUs?.toFixed(0) ?? '?'} µs of PostgreSQL`;
    const share = c.share === undefined ? 'unknown (no /proc)' : `${(c.share * 100).toFixed(0)}%`;
    const reached =
      r.ratioToCeiling === null ? '' : `; gives reached ${(r.ratioToCeiling * 100).toFixed(0)}%${perCommit(r.givesPerCommit)}`;
    console.log(`  ${r.database}: concurrent gives can reach at most ${share} of /healthz (${cost})${reached}`);
  }
}
