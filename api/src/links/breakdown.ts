import type { Database } from '../db/index.js';
import {
  BREAKDOWN_MIN_VISITORS,
  SOCIAL_SOURCES,
  VISITOR_SOURCES,
  type DAY_GROUPINGS,
  type PAIR_GROUPINGS,
  type SOURCE_GROUPINGS,
  type SourceGroup,
} from '../../contract/analytics.js';
import type { Link } from './entity.js';
import type { SuppressedCount, VisitorBreakdownView } from '../../contract/links.js';
import { viewDays, visitorGroups, type VisitorGroup } from './store.js';
import { utcDay } from './views.js';

/** The most days a breakdown lists (a link lives LINK_TTL_HOURS, a day by default). */
const MAX_DAYS = 31;
const WEEK = 7;

type DayGrouping = (typeof DAY_GROUPINGS)[number];
type SourceGrouping = (typeof SOURCE_GROUPINGS)[number];
type PairGrouping = (typeof PAIR_GROUPINGS)[number];

/** One row of a part of the breakdown, before it is shown. */
interface Row<G> {
  group: G;
  visitors: number;
}

/** One way of grouping a part: its name (`grouping`) and its rows. */
interface Level<R, N extends string> {
  grouping: N;
  rows: R[];
}

const isSmall = (n: number, min: number) => n > 0 && n < min;
const sum = (rows: { visitors: number }[]) => rows.reduce((s, r) => s + r.visitors, 0);

/**
 * The finest level (finest first) at which every row counts 0 or at least `min` visitors, and so
 * does `total` less their sum (visitors no row counts, e.g. a source not kept): then no shown row,
 * nor the total minus the shown rows, counts fewer than `min`. Else the last level, one row of
 * everyone, which `hidden` shows as null when under `min`.
 */
function coarsen<R extends Row<unknown>, N extends string>(
  levels: Level<R, N>[],
  total: number,
  min = BREAKDOWN_MIN_VISITORS,
): Level<R, N> {
  const safe = levels.find((l) => !l.rows.some((r) => isSmall(r.visitors, min)) && !isSmall(total - sum(l.rows), min));
  return safe ?? levels[levels.length - 1];
}

/** A count as the owner sees it: null ('fewer than 5') when it counts 1 to 4 visitors. */
const hidden = (n: number, min: number): SuppressedCount => (isSmall(n, min) ? null : n);

/** The start of the current UTC hour: only visitors first seen before it are grouped. */
const hourStart = (now: Date) => new Date(Math.floor(now.getTime() / 3600_000) * 3600_000);

/** Every UTC day of the link's life so far, oldest first: a day with no visitor is listed too. */
function daysOf(link: Link, now: Date): string[] {
  const last = Math.min(now.getTime(), link.expiresAt.getTime());
  const days: string[] = [];
  for (
    let t = Date.UTC(link.createdAt.getUTCFullYear(), link.createdAt.getUTCMonth(), link.createdAt.getUTCDate());
    t <= last;
    t += 86_400_000
  )
    days.push(utcDay(new Date(t)));
  return days.slice(-MAX_DAYS);
}

/** A link's visitors on one UTC day: views, and distinct visitors that day. */
export interface DayCount {
  day: string;
  views: number;
  visitors: number;
}
interface Span extends Row<string> {
  lastDay: string;
  views: number;
}

const span = (days: DayCount[]): Span => ({
  group: days[0].day,
  lastDay: days[days.length - 1].day,
  views: days.reduce((s, d) => s + d.views, 0),
  visitors: sum(days),
});

/** Days, then weeks from the first day (when there are more than seven), then the whole period. */
function dayLevels(days: DayCount[]): Level<Span, DayGrouping>[] {
  const levels: Level<Span, DayGrouping>[] = [{ grouping: 'day', rows: days.map((d) => span([d])) }];
  if (days.length > WEEK) {
    const weeks: Span[] = [];
    for (let i = 0; i < days.length; i += WEEK) weeks.push(span(days.slice(i, i + WEEK)));
    levels.push({ grouping: 'week', rows: weeks });
  }
  if (days.length > 1) levels.push({ grouping: 'all', rows: [span(days)] });
  return levels;
}

/**
 * The breakdown from the visitors' groups (source, device, signed in: each a count) and the
 * link's days, each part merged as far as `coarsen` needs. Days count visitors per day (one
 * visitor on two days counts on both), the other parts each visitor once.
 */
export function breakdownOf(groups: VisitorGroup[], days: DayCount[], min = BREAKDOWN_MIN_VISITORS): VisitorBreakdownView {
  const count = (match: (g: VisitorGroup) => boolean) => groups.filter(match).reduce((s, g) => s + Number(g.n), 0);
  const total = count(() => true);
  const everyone = { grouping: 'all' as const, rows: [{ group: 'all' as const, visitors: total }] };
  const shown = <G>(level: Level<Row<G>, string>) => level.rows.map((r) => ({ group: r.group, visitors: hidden(r.visitors, min) }));

  const bySource = Object.fromEntries(VISITOR_SOURCES.map((s) => [s, count((g) => g.source === s)]));
  const sources = coarsen<Row<SourceGroup>, SourceGrouping>(
    [
      { grouping: 'source', rows: VISITOR_SOURCES.map((s) => ({ group: s, visitors: bySource[s] })) },
      {
        grouping: 'kind',
        rows: [
          { group: 'social', visitors: SOCIAL_SOURCES.reduce((s, source) => s + bySource[source], 0) },
          { group: 'direct', visitors: bySource.direct },
          { group: 'other', visitors: bySource.other },
        ],
      },
      everyone,
    ],
    total,
    min,
  );
  const signedIn = coarsen<Row<'loggedIn' | 'anonymous' | 'all'>, PairGrouping>(
    [
      {
        grouping: 'each',
        rows: [
          { group: 'loggedIn', visitors: count((g) => Number(g.signed_in) === 1) },
          { group: 'anonymous', visitors: count((g) => Number(g.signed_in) === 0) },
        ],
      },
      everyone,
    ],
    total,
    min,
  );
  const devices = coarsen<Row<'phone' | 'desktop' | 'all'>, PairGrouping>(
    [
      {
        grouping: 'each',
        rows: [
          { group: 'phone', visitors: count((g) => g.device === 'phone') },
          { group: 'desktop', visitors: count((g) => g.device === 'desktop') },
        ],
      },
      everyone,
    ],
    total,
    min,
  );
  const period = days.length ? coarsen(dayLevels(days), sum(days), min) : { grouping: 'day' as const, rows: [] };

  return {
    days: period.rows.map((r) => {
      const visitors = hidden(r.visitors, min);
      return { day: r.group, lastDay: r.lastDay, views: visitors === null ? null : r.views, visitors };
    }),
    sources: shown(sources),
    signedIn: shown(signedIn),
    devices: shown(devices),
    grouping: { days: period.grouping, sources: sources.grouping, signedIn: signedIn.grouping, devices: devices.grouping },
    minimum: min,
  };
}

/**
 * A subscribed owner's visitor breakdown (`canSeeVisitorBreakdown`): views and distinct visitors
 * per UTC day, visitors by source, signed in or not, phone or desktop, each merged until no shown
 * number counts fewer than 5 (`breakdownOf`); visitors first seen in the current hour wait for the
 * next one, so a visit just before a gift never moves a row at once.
 */
export async function visitorBreakdown(db: Database, link: Link, now = new Date()): Promise<VisitorBreakdownView> {
  const groups = await visitorGroups(db, link.id, hourStart(now));
  const byDay = new Map((await viewDays(db, link.id)).map((d) => [d.day, d]));
  const days = daysOf(link, now).map((day) => ({ day, views: byDay.get(day)?.views ?? 0, visitors: byDay.get(day)?.visitors ?? 0 }));
  return breakdownOf(groups, days);
}
