import { describe, expect, it } from 'vitest';
import { Tokens } from '../auth/tokens.js';
import { readUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from './unsubscribe.js';

const tokens = new Tokens('a-test-secret-of-enough-length-for-hs256');
const userId = '0f9c2b1e-6a4d-4c1b-9a55-3f2e1d0c9b8a';
const sent = new Date('2026-12-01T10:00:00Z');
const days = (n: number) => new Date(sent.getTime() + n * 86_400_000);

describe('an unsubscribe link', () => {
  it('names nobody in clear, and is new for every email', () => {
    const first = unsubscribeToken(tokens, userId, 'gift', sent);
    const second = unsubscribeToken(tokens, userId, 'gift', sent);
    expect(first).not.toBe(second);
    for (const token of [first, second]) {
      expect(token).not.toContain(userId);
      expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(userId);
      expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('gift');
      expect(readUnsubscribeToken(tokens, token, days(1))).toEqual({ userId, kind: 'gift' });
    }
  });

  it(`stops working ${UNSUBSCRIBE_LINK_DAYS} days after its email was sent`, () => {
    const token = unsubscribeToken(tokens, userId, 'message', sent);
    expect(readUnsubscribeToken(tokens, token, days(UNSUBSCRIBE_LINK_DAYS - 1))).toEqual({ userId, kind: 'message' });
    expect(readUnsubscribeToken(tokens, token, days(UNSUBSCRIBE_LINK_DAYS + 1))).toBeNull();
  });

  it("is refused under another server's secret, and for a kind that cannot be turned off", () => {
    const token = unsubscribeToken(tokens, userId, 'gift', sent);
    expect(readUnsubscribeToken(new Tokens('another-secret-of-enough-length-for-hs256'), token, days(1))).toBeNull();
    expect(readUnsubscribeToken(tokens, unsubscribeToken(tokens, userId, 'password_changed', sent), days(1))).toBeNull();
  });
});
