/** bench:cluster's table, and what the CPU time per request says a bigger machine or more machines would give. */
import { GROUPS } from './groups.js';
import { CPU_COLUMNS, type Measured, type ScenarioName } from './measure.js';

export const SCENARIO_LABEL: Record<ScenarioName, string> = {
  gives: 'POST /statuses/api/gives',
  feed: 'GET /links/all?page=1',
  chat: 'socket.io sendMessage (ack)',
};

const GROUP_LABEL: Record<(typeof CPU_COLUMNS)[number], string> = {
  api: 'API',
  nginx: 'nginx',
  postgres: 'PostgreSQL',
  redis: 'Redis',
  load: 'load',
  other: 'other',
};

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const setup = (r: Measured) => (r.via === 'direct' ? '1 node, no nginx' : `nginx + ${r.nodes} node${r.nodes > 1 ? 's' : ''}`);

/** The row of `rows` for the same scenario straight to one node. */
const directOf = (rows: Measured[], r: Measured) => rows.find((d) => d.scenario === r.scenario && d.via === 'direct');

export function tableLines(rows: Measured[], markdown: boolean): string[] {
  const header = [
    'scenario',
    'set-up',
    'req/s',
    '× direct',
    'p50 ms',
    'p99 ms',
    'failed',
    ...CPU_COLUMNS.map((g) => `${GROUP_LABEL[g]} µs`),
    'busy CPUs',
  ];
  const lines = rows.map((r) => {
    const direct = directOf(rows, r);
    return [
      SCENARIO_LABEL[r.scenario],
      setup(r),
      int(r.perSecond),
      direct?.perSecond ? (r.perSecond / direct.perSecond).toFixed(2) : '',
      r.p50 < 1 ? '<1' : String(r.p50),
      String(r.p99),
      String(r.failures) + (r.problem ? ' CHECK FAILED' : ''),
      ...CPU_COLUMNS.map((g) => int(r.cpuUs[g])),
      r.busyCpus.toFixed(2),
    ];
  });
  if (markdown) return [header, header.map(() => '---'), ...lines].map((l) => `| ${l.join(' | ')} |`);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)];
}

export interface Capacity {
  scenario: ScenarioName;
  /** Mean µs per request of each group over the runs through nginx. */
  cpuUs: Record<(typeof GROUPS)[number], number>;
  /** Requests a second one core of each server-side group serves. */
  perCore: Record<'api' | 'nginx' | 'postgres' | 'redis', number>;
  /** Requests a second per core of one machine running the API, nginx, PostgreSQL and Redis. */
  perCoreAllInOne: number;
}

export function capacities(rows: Measured[]): Capacity[] {
  const out: Capacity[] = [];
  for (const scenario of ['gives', 'feed', 'chat'] as const) {
    const runs = rows.filter((r) => r.scenario === scenario && r.via === 'nginx' && r.count > 0);
    if (!runs.length) continue;
    const mean = (g: (typeof GROUPS)[number]) => runs.reduce((s, r) => s + r.cpuUs[g], 0) / runs.length;
    const cpuUs = Object.fromEntries(GROUPS.map((g) => [g, mean(g)])) as Capacity['cpuUs'];
    const per = (us: number) => (us > 0 ? 1e6 / us : Infinity);
    out.push({
      scenario,
      cpuUs,
      perCore: { api: per(cpuUs.api), nginx: per(cpuUs.nginx), postgres: per(cpuUs.postgres), redis: per(cpuUs.redis) },
      perCoreAllInOne: per(cpuUs.api + cpuUs.nginx + cpuUs.postgres + cpuUs.redis),
    });
  }
  return out;
}

/** One sentence per scenario: what a request costs each tier, and where C cores of API nodes saturate. */
export function capacityLines(caps: Capacity[]): string[] {
  return caps.map((c) => {
    const u = c.cpuUs;
    const cores = [4, 8, 16].map(
      (n) => `${n} → ${int(n * c.perCore.api)}/s (PostgreSQL then busy ${((n * c.perCore.api * u.postgres) / 1e6).toFixed(1)} cores)`,
    );
    return (
      `${SCENARIO_LABEL[c.scenario]}: ${int(u.api)} µs of API CPU + ${int(u.postgres)} µs PostgreSQL + ${int(u.nginx)} µs nginx + ` +
      `${int(u.redis)} µs Redis a request (load generator ${int(u.load)} µs). One core serves ${int(c.perCore.api)}/s of API, ` +
      `${int(c.perCore.postgres)}/s of PostgreSQL, ${int(c.perCore.nginx)}/s of nginx; C cores of API nodes saturate at ${cores.join(', ')}; ` +
      `everything on one machine: ${int(c.perCoreAllInOne)}/s per core.`
    );
  });
}
