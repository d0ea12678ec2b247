/**
 * PostgreSQL: the locks that keep each member's message numbers in commit order (the 1763872300000
 * migration). A writer of messages takes one per member of its messages' conversations before it
 * takes a number, and holds them to the end of its transaction, after its commit is durable and
 * visible: whoever writes to one of those members next waits for that, and numbers after it.
 *
 * They are transaction-level advisory locks in a key space of their own (`MEMBER_LOCKS`, then the
 * user id's 32-bit hash): nothing is written for them, where a lock on the user's row writes the row.
 * Two users whose ids hash alike share a lock, which only makes their writers wait for each other.
 * Taken in the order of their keys, in one statement, so two writers never wait on each other in a
 * cycle.
 */
const MEMBER_LOCKS = 1;

/** SQL that locks the members `ids` (an SQL expression of a set of user ids, one column `x`). */
export const lockMembersSql = (ids: string) =>
  `SELECT pg_advisory_xact_lock(${MEMBER_LOCKS}, k) FROM (SELECT DISTINCT hashtext(x) AS k FROM (${ids}) m ORDER BY k OFFSET 0) s`;
