/**
 * A closed account's username is released 30 days after it closed (users/policy.ts): its row
 * takes a tombstone username (`~` and a random UUID: no registration can ask for it, and it is not
 * derived from anything), so the name is free. The `accounts.release` job does it for every such
 * account; registration does it at once for the name it asks for, so nobody waits for the job.
 */
import crypto from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import { UserEntity } from './entity.js';
import { releasedBefore } from './policy.js';

export const TOMBSTONE_PREFIX = '~';
export const tombstoneUsername = () => `${TOMBSTONE_PREFIX}${crypto.randomUUID()}`;

/** Releases the usernames of accounts closed long enough ago (only `username`'s when given). Answers how many. */
export async function releaseClosedUsernames(em: EntityManager, now: Date, username?: string): Promise<number> {
  const query = em
    .createQueryBuilder(UserEntity, 'u')
    .select(['u.id', 'u.username'])
    .where('u.closed_at < :before AND u.username NOT LIKE :tombstone', {
      before: dateParam(em, releasedBefore(now)),
      tombstone: `${TOMBSTONE_PREFIX}%`,
    });
  if (username !== undefined) query.andWhere('u.username = :username', { username });
  const due = await query.getMany();
  let released = 0;
  for (const row of due) {
    const done = await em
      .createQueryBuilder()
      .update(UserEntity)
      .set({ username: tombstoneUsername() })
      .where('id = :id AND username = :username', { id: row.id, username: row.username })
      .execute();
    released += done.affected ?? 0;
  }
  return released;
}
