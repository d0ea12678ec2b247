import type { Database } from '../db/index.js';
import { BREAKDOWN_MIN_VISITORS, VISITOR_SOURCES, type VisitorSource } from '../../contract/analytics.js';
import type { Link } from './entity.js';
import type { SuppressedCount, VisitorBreakdownView } from '../../contract/links.js';
import { viewDays, visitorGroups, type VisitorGroup } from './store.js';
import { utcDay } from './views.js';

/** The most days a breakdown lists (a link lives LINK_TTL_HOURS, a day by default). */
const MAX_DAYS = 31;

/**
 * Hides every cell below `min` (null: 'fewer than 5'). When exactly one cell of a group is hidden,
 * the owner could work it out from the total they see (views, visitors): the smallest shown cell
 * is hidden too, so no single small cell can be subtracted out.
 */
export function suppress(values: number[], min = BREAKDOWN_MIN_VISITORS): SuppressedCount[] {
  const out: SuppressedCount[] = values.map((v) => (v < min ? null : v));
  if (values.length > 1 && out.filter((v) => v === null).length === 1) {
    let smallest = -1;
    for (const [i, v] of out.entries()) if (v !== null && (smallest < 0 || v < values[smallest])) smallest = i;
    if (smallest >= 0) out[smallest] = null;
  }
  return out;
}

/** The start of the current UTC hour: only visitors first seen before it are grouped. */
const hourStart = (now: Date) => new Date(Math.floor(now.getTime() / 3600_000) * 3600_000);

/** Every UTC day of the link's life so far, oldest first: a day with no visitor is listed (and hidden) too. */
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

/**
 * A subscribed owner's visitor breakdown (`canSeeVisitorBreakdown`): views and distinct visitors
 * per UTC day, visitors by source, signed in or not, phone or desktop. Counts only, each below 5
 * hidden (see `suppress`); visitors first seen in the current hour wait for the next one, so a
 * visit just before a gift never moves a cell at once.
 */
export async function visitorBreakdown(db: Database, link: Link, now = new Date()): Promise<VisitorBreakdownView> {
  const groups = await visitorGroups(db, link.id, hourStart(now));
  const count = (match: (g: VisitorGroup) => boolean) => groups.filter(match).reduce((sum, g) => sum + Number(g.n), 0);

  const sourceCells = suppress(VISITOR_SOURCES.map((s) => count((g) => g.source === s)));
  const sources = Object.fromEntries(VISITOR_SOURCES.map((s, i) => [s, sourceCells[i]])) as Record<VisitorSource, SuppressedCount>;
  const [loggedIn, anonymous] = suppress([count((g) => Number(g.signed_in) === 1), count((g) => Number(g.signed_in) === 0)]);
  const [phone, desktop] = suppress([count((g) => g.device === 'phone'), count((g) => g.device === 'desktop')]);

  const byDay = new Map((await viewDays(db, link.id)).map((d) => [d.day, { views: d.views, visitors: d.visitors }]));
  const days = daysOf(link, now);
  const shown = suppress(days.map((d) => byDay.get(d)?.visitors ?? 0));
  return {
    days: days.map((day, i) => ({ day, views: shown[i] === null ? null : (byDay.get(day)?.views ?? 0), visitors: shown[i] })),
    sources,
    signedIn: { loggedIn, anonymous },
    devices: { phone, desktop },
    minimum: BREAKDOWN_MIN_VISITORS,
  };
}
