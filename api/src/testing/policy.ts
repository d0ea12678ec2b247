import { describe, expect, it } from 'vitest';

/**
 * Tests a policy rule as a table (docs/DESIGN-RULES.md, "Who may see what"): one row per case, written as
 * `[what the case is, ...the rule's arguments (viewer, subject…), expected answer]`.
 */
export function ruleTable<A extends unknown[]>(title: string, rule: (...args: A) => boolean, rows: [string, ...A, boolean][]): void {
  describe(title, () => {
    it.each(rows.map((row) => ({ name: row[0], args: row.slice(1, -1) as A, expected: row[row.length - 1] as boolean })))(
      '$name',
      ({ args, expected }) => {
        expect(rule(...args)).toBe(expected);
      },
    );
  });
}
