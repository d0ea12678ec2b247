import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import type { MarketplaceOrders, OrderMoved, OrderSchedule } from '../catalog/catalog.js';
import { OrderEntity } from './entity.js';
import type { OrderStatus } from '../../contract/orders.js';

const MINUTE_MS = 60_000;
const BATCH = 200;

/**
 * Moves orders in `from` whose `since` column is at least `afterMinutes` old to `to`, each by a
 * conditional update (`WHERE id = ? AND status = from`): of two processes sweeping at once, one
 * moves each order.
 */
async function move(
  db: Database,
  step: { from: OrderStatus; to: 'shipped' | 'delivered'; since: 'placed_at' | 'shipped_at'; stamp: 'shippedAt' | 'deliveredAt' },
  now: Date,
  afterMinutes: number,
  moved: OrderMoved,
): Promise<number> {
  return db.transaction(async (em) => {
    const due = await em
      .createQueryBuilder(OrderEntity, 'o')
      .where('o.status = :from', { from: step.from })
      .andWhere(`o.${step.since} <= :due`, { due: dateParam(em, new Date(now.getTime() - afterMinutes * MINUTE_MS)) })
      .orderBy(`o.${step.since}`, 'ASC')
      .limit(BATCH)
      .getMany();
    let count = 0;
    for (const order of due) {
      const result = await em
        .createQueryBuilder()
        .update(OrderEntity)
        .set({ status: step.to, [step.stamp]: now, updatedAt: now })
        .where('id = :id AND status = :from', { id: order.id, from: step.from })
        .execute();
      if (result.affected !== 1) continue;
      count += 1;
      await moved(em, { ...order, status: step.to, [step.stamp]: now, updatedAt: now }, step.to);
    }
    return count;
  });
}

/**
 * The sandbox marketplace: a placed order ships `shipAfterMinutes` after it was placed and is
 * delivered `deliverAfterMinutes` after it shipped (ORDER_SHIP_AFTER_MINUTES,
 * ORDER_DELIVER_AFTER_MINUTES). No parcel moves; the statuses do, as a real marketplace's would.
 */
export const sandboxMarketplace: MarketplaceOrders = {
  provider: 'sandbox',
  note: 'Orders go to the sandbox marketplace: they ship and arrive on the configured schedule.',
  async advance(db: Database, now: Date, schedule: OrderSchedule, moved: OrderMoved) {
    // Delivered first, so an order ships and arrives in separate sweeps (never both at once).
    const delivered = await move(
      db,
      { from: 'shipped', to: 'delivered', since: 'shipped_at', stamp: 'deliveredAt' },
      now,
      schedule.deliverAfterMinutes,
      moved,
    );
    const shipped = await move(
      db,
      { from: 'placed', to: 'shipped', since: 'placed_at', stamp: 'shippedAt' },
      now,
      schedule.shipAfterMinutes,
      moved,
    );
    return { shipped, delivered };
  },
};
