import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VISITOR_SOURCES, type VisitorDevice, type VisitorSource } from '../../contract/analytics.js';
import type { VisitorBreakdownView } from '../../contract/links.js';
import { breakdownOf, type DayCount } from './breakdown.js';
import type { VisitorGroup } from './store.js';

const MIN = 5;

/** One visitor as the tables keep it: source and device absent under Global Privacy Control. */
interface Visitor {
  source: VisitorSource | null;
  device: VisitorDevice | null;
  signedIn: boolean;
  /** The days (indices into the link's days) it visited on, and its views each day. */
  visits: { day: number; views: number }[];
}

const visitorArb = (days: number) =>
  fc.record({
    source: fc.oneof(fc.constantFrom(...VISITOR_SOURCES), fc.constant(null)),
    device: fc.constantFrom<VisitorDevice | null>('phone', 'desktop', null),
    signedIn: fc.boolean(),
    visits: fc.uniqueArray(fc.record({ day: fc.nat(days - 1), views: fc.integer({ min: 1, max: 3 }) }), {
      minLength: 1,
      maxLength: Math.min(days, 3),
      selector: (v) => v.day,
    }),
  });

/** A link's life (1 to 31 days) and up to 60 visitors, most of them few: small creators. */
const linkArb = fc
  .integer({ min: 1, max: 31 })
  .chain((days) => fc.record({ days: fc.constant(days), visitors: fc.array(visitorArb(days), { maxLength: 60 }) }));

const groupsOf = (visitors: Visitor[]): VisitorGroup[] =>
  visitors.map((v) => ({ source: v.source, device: v.device, signed_in: v.signedIn ? 1 : 0, n: 1 }));

const dayName = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
function dayCounts(days: number, visitors: Visitor[]): DayCount[] {
  return Array.from({ length: days }, (_, i) => {
    const that = visitors.flatMap((v) => v.visits.filter((d) => d.day === i));
    return { day: dayName(i), visitors: that.length, views: that.reduce((s, d) => s + d.views, 0) };
  });
}

/** A part as the owner sees it: its rows, and the total they can know (the link's counts). */
interface Part {
  name: string;
  rows: (number | null)[];
  total: number;
}

function partsOf(view: VisitorBreakdownView, visitors: Visitor[], days: DayCount[]): Part[] {
  const total = visitors.length;
  return [
    { name: 'sources', rows: view.sources.map((c) => c.visitors), total },
    { name: 'signedIn', rows: view.signedIn.map((c) => c.visitors), total },
    { name: 'devices', rows: view.devices.map((c) => c.visitors), total },
    { name: 'days', rows: view.days.map((d) => d.visitors), total: days.reduce((s, d) => s + d.visitors, 0) },
    { name: 'views', rows: view.days.map((d) => d.views), total: days.reduce((s, d) => s + d.views, 0) },
  ];
}

const isSmall = (n: number) => n > 0 && n < MIN;

/**
 * What an owner could learn of fewer than 5 visitors: a shown row of 1 to 4, or a total that less
 * the shown rows leaves 1 to 4. (A part with no row shown says only its total, the link's count.)
 */
function leaks(parts: Part[]): string[] {
  return parts.flatMap(({ name, rows, total }) => {
    const shown = rows.filter((r): r is number => r !== null);
    const out = shown.filter(isSmall).map((r) => `${name}: a row of ${r}`);
    const left = total - shown.reduce((s, r) => s + r, 0);
    if (shown.length && isSmall(left)) out.push(`${name}: ${total} less the shown rows is ${left}`);
    return out;
  });
}

/** A part of 5 or more visitors with no row shown is a blank card (views follow their visitors). */
const blanks = (parts: Part[]) =>
  parts.filter((p) => p.name !== 'views' && p.total >= MIN && p.rows.every((r) => r === null)).map((p) => p.name);

describe('the coarsened breakdown', () => {
  it('never shows, nor lets subtraction show, a count of 1 to 4 visitors, and is never blank', () => {
    fc.assert(
      fc.property(linkArb, ({ days, visitors }) => {
        const counts = dayCounts(days, visitors);
        const parts = partsOf(breakdownOf(groupsOf(visitors), counts), visitors, counts);
        expect(leaks(parts)).toEqual([]);
        expect(blanks(parts)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('would catch the blanking it replaced: hiding each small cell, and one more when only one is hidden', () => {
    // The old rule, as it was: shown cells beside the link's total could be subtracted to 1 to 4.
    const blanking = (values: number[]): (number | null)[] => {
      const out = values.map((v) => (v < MIN ? null : v));
      if (values.length > 1 && out.filter((v) => v === null).length === 1) {
        let smallest = -1;
        for (const [i, v] of out.entries()) if (v !== null && (smallest < 0 || v < values[smallest])) smallest = i;
        if (smallest >= 0) out[smallest] = null;
      }
      return out;
    };
    const old = fc.check(
      fc.property(linkArb, ({ visitors }) => {
        const total = visitors.length;
        const bySource = VISITOR_SOURCES.map((s) => visitors.filter((v) => v.source === s).length);
        return leaks([{ name: 'sources', rows: blanking(bySource), total }]).length === 0;
      }),
      { numRuns: 2000, seed: 41 },
    );
    expect(old.failed).toBe(true);
    // E.g. 6 from Instagram and 9 from X shown, 1 hidden: 16 visitors less 15 is the one.
    expect(leaks([{ name: 'sources', rows: blanking([6, 9, 1, 0, 0]), total: 16 }])).toEqual(['sources: 16 less the shown rows is 1']);
  });

  it('merges days into weeks, then the whole period, and says how far', () => {
    // 14 days, 3 visitors a day: a week holds 21, a day too few.
    const days = Array.from({ length: 14 }, (_, i) => ({ day: dayName(i), views: 4, visitors: 3 }));
    const view = breakdownOf([{ source: 'direct', device: 'phone', signed_in: 0, n: 6 }], days);
    expect(view.grouping.days).toBe('week');
    expect(view.days).toEqual([
      { day: dayName(0), lastDay: dayName(6), views: 28, visitors: 21 },
      { day: dayName(7), lastDay: dayName(13), views: 28, visitors: 21 },
    ]);
    // One visitor in the second week: only the whole period is safe.
    const quiet = Array.from({ length: 7 }, (_, i) => ({ day: dayName(7 + i), views: i === 0 ? 1 : 0, visitors: i === 0 ? 1 : 0 }));
    const sparse = breakdownOf([], [...days.slice(0, 7), ...quiet]);
    expect(sparse.grouping.days).toBe('all');
    expect(sparse.days).toEqual([{ day: dayName(0), lastDay: dayName(13), views: 29, visitors: 22 }]);
  });

  it('shows fewer than 5 visitors in all as "fewer than 5" (null), and 0 as 0', () => {
    const view = breakdownOf([{ source: 'instagram', device: 'phone', signed_in: 1, n: 3 }], [{ day: dayName(0), views: 3, visitors: 3 }]);
    expect(view.sources).toEqual([{ group: 'all', visitors: null }]);
    expect(view.signedIn).toEqual([{ group: 'all', visitors: null }]);
    expect(view.days).toEqual([{ day: dayName(0), lastDay: dayName(0), views: null, visitors: null }]);
    const none = breakdownOf([], [{ day: dayName(0), views: 0, visitors: 0 }]);
    expect(none.sources.map((c) => c.visitors)).toEqual([0, 0, 0, 0, 0]);
  });
});
