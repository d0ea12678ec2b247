import { describe, expect, it } from 'vitest';
import { canJoinThrough } from './policy.js';

describe('canJoinThrough', () => {
  it.each([
    // inviter's setting (null: no such user), free invites, expected
    [true, 1, true],
    [true, 3, true],
    [true, 0, false],
    [false, 2, false],
    [false, 0, false],
    [null, 2, false],
  ])('setting %s with %s free invites: %s', (setting, free, expected) => {
    expect(canJoinThrough(setting === null ? null : { letVisitorsJoin: setting }, free)).toBe(expected);
  });
});
