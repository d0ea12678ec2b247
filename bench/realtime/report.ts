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
