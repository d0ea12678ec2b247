import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { isDefiniteFailure, shortfallOf } from './useCardDeposit';

describe('shortfallOf: what the card pays for a gift the balance cannot cover', () => {
  it('is nothing when the balance covers it', () => {
    expect(shortfallOf(5, 5)).toBe(0);
    expect(shortfallOf(5, 12.5)).toBe(0);
  });

  it('is what is missing, to the cent', () => {
    expect(shortfallOf(20, 7.5)).toBe(12.5);
    expect(shortfallOf(10.3, 0.1 + 0.2)).toBe(10);
  });

  it('is at least the smallest deposit, $1', () => {
    expect(shortfallOf(5, 4.5)).toBe(1);
    expect(shortfallOf(5, 3.99)).toBe(1.01);
  });
});

describe('isDefiniteFailure: whether the next press is a new attempt with a new key', () => {
  it('is a refusal the server answered for good', () => {
    expect(isDefiniteFailure(new ApiError(402, 'card_declined', 'Your card was declined.'))).toBe(true);
    expect(isDefiniteFailure(new ApiError(400, 'validation_failed', 'Enter a valid amount.'))).toBe(true);
  });

  it('is not a failure the same key may still settle: no answer, a conflict, a server fault', () => {
    expect(isDefiniteFailure(new ApiError(0, 'network_error', 'offline'))).toBe(false);
    expect(isDefiniteFailure(new ApiError(409, 'idempotency_key_in_progress', 'In progress'))).toBe(false);
    expect(isDefiniteFailure(new ApiError(502, 'http_502', 'Bad Gateway'))).toBe(false);
    expect(isDefiniteFailure(new Error('boom'))).toBe(false);
  });
});
