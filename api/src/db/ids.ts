import crypto from 'node:crypto';
import { v7 } from 'uuid';

/** Random bytes for ids, drawn from the system in blocks: the uuid package asks for 16 at a time, a call each. */
const POOL_BYTES = 16 * 512;
let pool = new Uint8Array(0);
let used = 0;
function random16(): Uint8Array {
  if (used + 16 > pool.length) {
    pool = crypto.randomBytes(POOL_BYTES);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

/** Monotonic within a millisecond, as uuid's own v7 keeps it: a random 31-bit start, then one more per id. */
const clock = { msecs: -Infinity, seq: 0 };

/**
 * The id of a row of a table that only grows, many rows a second: ledger transfers and entries,
 * gifts (link uses), messages, notifications, analytics events, Idempotency-Key records.
 *
 * A UUIDv7 begins with the time it was made, so each new row's key lands at the end of its
 * primary-key index and the rows one COMMIT adds share a few pages, where a random UUID (v4) puts
 * every insert on a page of its own.
 * It still has 74 random bits, but it tells when it was made, to the millisecond, which each of
 * these rows shows anyway (its createdAt). What must not be dated or guessed (users, sessions,
 * invites, password resets, conversations and anonymous pseudonyms) keeps `crypto.randomUUID()`.
 */
export function appendedRowId(): string {
  const random = random16();
  const now = Date.now();
  if (now > clock.msecs) {
    clock.msecs = now;
    clock.seq = ((random[6] << 23) | (random[7] << 16) | (random[8] << 8) | random[9]) & 0x7fffffff;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs++;
  }
  return v7({ random, msecs: clock.msecs, seq: clock.seq });
}
