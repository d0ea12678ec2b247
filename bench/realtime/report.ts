/** The summary table printed at the end of bench:realtime. */
import type { Options } from './options.js';
import type { Row } from './scenario.js';

export function table(rows: Row[], opts: Options): void {
  const name = (r: Row) =>
    `${r.kind === 'echo' ? 'bare socket.io echo' : `giftlink (${opts.db})`}${r.processes === 2 ? ', 2 processes + Redis' : ''}`;
  const header = [
    'scenario',
    'clients',
    'connect s',
    `@${opts.rate}/s p50 ms`,
    'p99 ms',
    'lost',
    'sat. msg/s',
    'sat. p50 ms',
    'sat. p99 ms',
    'errors',
  ];
  const lines = rows.map((r) => [
    name(r),
    String(r.clients),
    r.connectSeconds.toFixed(1),
    r.fixed.p50.toFixed(1),
    r.fixed.p99.toFixed(1),
    String(r.fixed.lost + r.saturation.lost),
    String(r.saturation.messagesPerSecond),
    r.saturation.p50.toFixed(1),
    r.saturation.p99.toFixed(1),
    String(r.fixed.errors + r.saturation.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const l of lines) console.log(fmt(l));
}

/** The goal: persisted chat messages a second at saturation, as a share of a bare socket.io echo's with as many clients. */
const GOAL = { sqlite: 0.4, postgres: 0.25 } as const;

export function goals(rows: Row[], opts: Options): void {
  const goal = GOAL[opts.db];
  const lines = rows.flatMap((r) => {
    const echo = rows.find((e) => e.kind === 'echo' && e.clients === r.clients && e.processes === r.processes);
    if (r.kind !== 'giftlink' || !echo?.saturation.messagesPerSecond) return [];
    const share = r.saturation.messagesPerSecond / echo.saturation.messagesPerSecond;
    const where = `${r.clients} clients${r.processes === 2 ? ', 2 processes + Redis' : ''}`;
    return [
      `  chat vs echo (${opts.db}), ${where}: ${(share * 100).toFixed(0)}% (goal >= ${goal * 100}%: ${share >= goal ? 'met' : 'NOT met'})`,
    ];
  });
  if (lines.length) console.log(`\ngoals\n${lines.join('\n')}`);
}
