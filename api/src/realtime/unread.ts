import { MessageEntity } from '../conversations/entity.js';
import type { Database } from '../db/index.js';
import { NotificationEntity } from '../notifications/entity.js';
import type { UnreadCounts } from './events.js';

/**
 * The unread counts (`init`, `unread-counts`) of every user asked for in the same tick, in three
 * grouped reads whatever their number: a thousand sockets connecting at once cost three queries,
 * not two thousand. The same counts as `unreadMessageCount` and `unreadNotificationCount`.
 */
const CHUNK = 500;

interface Waiter {
  resolve: (counts: UnreadCounts) => void;
  reject: (err: unknown) => void;
}

class UnreadBatcher {
  private pending = new Map<string, Waiter[]>();

  constructor(private readonly db: Database) {}

  get(userId: string): Promise<UnreadCounts> {
    return new Promise<UnreadCounts>((resolve, reject) => {
      const waiting = this.pending.get(userId);
      if (waiting) return waiting.push({ resolve, reject });
      if (this.pending.size === 0) setImmediate(() => void this.flush());
      this.pending.set(userId, [{ resolve, reject }]);
    });
  }

  private async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = new Map();
    const ids = [...pending.keys()];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      try {
        const counts = await countsOf(this.db, chunk);
        for (const id of chunk) for (const w of pending.get(id)!) w.resolve(counts.get(id)!);
      } catch (err) {
        for (const id of chunk) for (const w of pending.get(id)!) w.reject(err);
      }
    }
  }
}

/** Messages sent to each user that they have not read, by the side of the conversation they are on. */
function unreadMessagesAs(db: Database, side: 'initiator_id' | 'responder_id', ids: string[]) {
  return db.manager
    .createQueryBuilder(MessageEntity, 'm')
    .innerJoin('Conversation', 'c', 'c.id = m.conversation_id')
    .select(`c.${side}`, 'user_id')
    .addSelect('COUNT(*)', 'n')
    .where(`c.${side} IN (:...ids)`, { ids })
    .andWhere(`m.sender_id <> c.${side}`)
    .andWhere('NOT m.read')
    .groupBy(`c.${side}`)
    .getRawMany<{ user_id: string; n: number | string }>();
}

async function countsOf(db: Database, ids: string[]): Promise<Map<string, UnreadCounts>> {
  const [asInitiator, asResponder, notifications] = await Promise.all([
    unreadMessagesAs(db, 'initiator_id', ids),
    unreadMessagesAs(db, 'responder_id', ids),
    db.manager
      .createQueryBuilder(NotificationEntity, 'n')
      .select('n.receiver_id', 'user_id')
      .addSelect('COUNT(*)', 'n')
      .where('n.receiver_id IN (:...ids)', { ids })
      .andWhere('n.read = :unread', { unread: false })
      .groupBy('n.receiver_id')
      .getRawMany<{ user_id: string; n: number | string }>(),
  ]);
  const counts = new Map(ids.map((id): [string, UnreadCounts] => [id, { unreadMessages: 0, unreadNotifications: 0 }]));
  // A conversation with oneself has no message from anyone else: it never counts twice.
  for (const r of [...asInitiator, ...asResponder]) counts.get(r.user_id)!.unreadMessages += Number(r.n);
  for (const r of notifications) counts.get(r.user_id)!.unreadNotifications = Number(r.n);
  return counts;
}

const batchers = new WeakMap<Database, UnreadBatcher>();

/** The user's unread messages and notifications (batched with everyone else's asked in this tick). */
export function unreadCounts(db: Database, userId: string): Promise<UnreadCounts> {
  let batcher = batchers.get(db);
  if (!batcher) batchers.set(db, (batcher = new UnreadBatcher(db)));
  return batcher.get(userId);
}
