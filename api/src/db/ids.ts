import { v7 } from 'uuid';

/**
 * The id of a row of a table that only grows, many rows a second: ledger transfers and entries,
 * gifts (link uses), messages, notifications, analytics events, Idempotency-Key records.
 *
 * A UUIDv7 begins with the time it was made, so each new row's key lands at the end of its
 * primary-key index and the rows one COMMIT adds share a few pages, where a random UUID (v4) puts
 * every insert on a page of its own (issue 15: a give writes 23 WAL pages, not 26).
 * It still has 74 random bits, but it tells when it was made, to the millisecond, which each of
 * these rows shows anyway (its createdAt). What must not be dated or guessed (users, sessions,
 * invites, password resets, conversations and anonymous pseudonyms) keeps `crypto.randomUUID()`.
 */
export const appendedRowId = (): string => v7();
