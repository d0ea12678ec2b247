import type { Database } from '../db/index.js';
import { dateParam } from '../db/dates.js';
import { dateFrom } from '../db/sql.js';
import { UserEntity } from '../users/entity.js';
import { centsToDollars } from '../../contract/money.js';
import type { BalanceResponse } from '../../contract/wallet.js';

/** A user's held lots still on hold at `:now` (holds-store.ts's summary, per user). */
const HELD = `FROM held_lots h WHERE h.account = 'user:' || u.id AND h.available_at > :now AND h.remaining_cents > 0`;

/**
 * The balance answers (GET /api/billing-settings-balance's shape) of several users at once, from
 * committed data, in one query: the socket's `balance` event after money moved. Holds are as at
 * `now`, and what is owed follows disputes-store.ts's rule.
 */
export async function balanceSummaries(db: Database, userIds: readonly string[], now: Date): Promise<Map<string, BalanceResponse>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.manager
    .createQueryBuilder(UserEntity, 'u')
    .select('u.id', 'id')
    .addSelect('u.balance_cents', 'balance')
    .addSelect(`(SELECT COALESCE(SUM(h.remaining_cents), 0) ${HELD})`, 'held')
    .addSelect(`(SELECT MIN(h.available_at) ${HELD})`, 'next')
    .addSelect(
      `(SELECT COALESCE(SUM(d.unrecovered_cents - d.repaid_cents), 0) FROM disputes d
        WHERE d.user_id = u.id AND d.status <> 'won' AND d.unrecovered_cents > d.repaid_cents)`,
      'owed',
    )
    .where('u.id IN (:...ids)', { ids: [...userIds], now: dateParam(db.manager, now) })
    .getRawMany<{ id: string; balance: string | number; held: string | number; next: unknown; owed: string | number }>();
  return new Map(
    rows.map((r): [string, BalanceResponse] => {
      const balanceCents = Number(r.balance);
      const heldCents = Number(r.held);
      const owedCents = Number(r.owed);
      return [
        r.id,
        {
          balance: centsToDollars(balanceCents),
          available: centsToDollars(owedCents > 0 ? 0 : Math.max(0, balanceCents - heldCents)),
          onHold: centsToDollars(Math.min(heldCents, balanceCents)),
          nextReleaseAt: heldCents > 0 && r.next ? dateFrom(r.next).toISOString() : null,
          owed: centsToDollars(owedCents),
        },
      ];
    }),
  );
}
