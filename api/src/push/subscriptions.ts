import crypto from 'node:crypto';
import type { PushDevice, PushSubscriptionBody } from '../../contract/push.js';
import { PUSH_BAD_ENDPOINT } from '../../contract/texts.js';
import { SessionEntity } from '../auth/entity.js';
import { deviceOf } from '../auth/sessions-list.js';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { badRequest } from '../errors.js';
import { resolveEndpoint } from './endpoint.js';
import { PushSubscriptionEntity, type PushSubscriptionRow } from './entity.js';

/**
 * A browser's subscription for the signed-in session: one row per endpoint, so the same browser
 * subscribing again (or after another user signed in on it) updates the row, its owner and its session.
 */
export async function subscribe(
  db: Database,
  { userId, sessionId }: { userId: string; sessionId: string },
  body: PushSubscriptionBody,
  userAgent: string | null,
  allowPrivate: boolean,
): Promise<PushDevice> {
  if (!(await resolveEndpoint(body.endpoint, allowPrivate))) throw badRequest(PUSH_BAD_ENDPOINT, 'bad_push_endpoint');
  const row: PushSubscriptionRow = {
    id: crypto.randomUUID(),
    userId,
    sessionId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    device: deviceOf(userAgent).slice(0, 100),
    createdAt: new Date(),
  };
  await db.transaction(async (em) => {
    const existing = await em.findOneBy(PushSubscriptionEntity, { endpoint: body.endpoint });
    if (existing) row.id = existing.id;
    await em.save(PushSubscriptionEntity, row);
  });
  return presentDevice(row);
}

export const presentDevice = (row: PushSubscriptionRow): PushDevice => ({
  id: row.id,
  device: row.device,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The user's devices, newest first: those of live sessions and those from before sessions were
 * recorded. A session's end deletes its devices; this also skips one subscribed as it ended.
 */
export function subscriptionsOf(db: Database, userId: string): Promise<PushSubscriptionRow[]> {
  const em = db.manager;
  return em
    .createQueryBuilder(PushSubscriptionEntity, 'p')
    .leftJoin(SessionEntity.options.name, 's', 's.id = p.session_id')
    .where('p.user_id = :userId', { userId })
    .andWhere('(p.session_id IS NULL OR (s.revoked_at IS NULL AND s.expires_at > :now))', { now: dateParam(em, new Date()) })
    .orderBy('p.createdAt', 'DESC')
    .getMany();
}

/** Removes one of the user's own subscriptions: false when it is not theirs (or gone). */
export async function unsubscribe(db: Database, userId: string, id: string): Promise<boolean> {
  const result = await db.transaction((em) => em.delete(PushSubscriptionEntity, { id, userId }));
  return (result.affected ?? 0) > 0;
}

/** A subscription the push service says is dead (404/410): removed, whoever's it is. */
export async function dropSubscription(db: Database, id: string): Promise<void> {
  await db.transaction((em) => em.delete(PushSubscriptionEntity, { id }));
}
