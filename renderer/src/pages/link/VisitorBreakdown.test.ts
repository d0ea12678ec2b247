import { describe, expect, it } from 'vitest';
import { groupingNote } from './VisitorBreakdown';

const finest = { days: 'day', sources: 'source', signedIn: 'each', devices: 'each' } as const;

describe("groupingNote: what the visitor breakdown merged, in the card's words", () => {
  it('says nothing when every part is as fine as it goes', () => {
    expect(groupingNote(finest)).toBe('');
  });

  it('names one merge', () => {
    expect(groupingNote({ ...finest, days: 'week' })).toBe('Grouped days by week so no number counts fewer than 5 visitors.');
  });

  it('lists several, the last after "and"', () => {
    expect(groupingNote({ days: 'all', sources: 'kind', signedIn: 'all', devices: 'each' })).toBe(
      'Grouped all days together, sources into Social, Direct and Other and signed in or not together so no number counts fewer than 5 visitors.',
    );
    expect(groupingNote({ days: 'day', sources: 'all', signedIn: 'each', devices: 'all' })).toBe(
      'Grouped all sources together and all devices together so no number counts fewer than 5 visitors.',
    );
  });
});
