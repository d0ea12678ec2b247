import crypto from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EntityManager } from 'typeorm';
import type { RateLimits } from '../limits/rate-limits.js';
import type { VisitorDevice, VisitorSource } from '../../contract/analytics.js';
import type { User } from '../users/entity.js';
import { addToViewDay, countVisit, countedSince, lastCounted } from './store.js';

/** A visitor's views of one link count once per this long. */
export const VIEW_WINDOW_SECONDS = 3600;

/**
 * New anonymous visitors (browser sessions, or the address itself) one client address can add to
 * one link per hour. A browser session id is whatever the client sends, so without this a script
 * could send a fresh UUID with each call and count as a new visitor every time.
 */
export const ANONYMOUS_VISITORS_PER_ADDRESS = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who opens a link page, as the request tells it. */
export interface Visit {
  /** The browser's visitor id from the request body; only a UUID is taken as one. */
  sessionId?: string;
  /** The client address (`ctx.ip`, see TRUST_PROXY_HOPS). */
  address: string;
  /** Where the visitor came from and on what, kept at its first visit; absent under Sec-GPC. */
  source?: VisitorSource | null;
  device?: VisitorDevice | null;
}

/** The UTC day of `date`, 'YYYY-MM-DD': the finest time the owner's breakdown knows. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * Counts link views: at most one per visitor per link per hour. The visitor is the signed-in user;
 * else the browser session (a UUID the browser keeps); else the client address, stored only as a
 * keyed hash that differs for each link, so the table never holds an address.
 */
export class ViewCounter {
  private readonly addressKey: Buffer;
  private readonly anonymous: RateLimiterAbstract;

  /** @param secret the server's secret (JWT_SECRET): the address hashes cannot be recomputed without it. */
  constructor(limits: RateLimits, secret: string) {
    this.addressKey = crypto.createHmac('sha256', secret).update('giftlink:link-visitor-address').digest();
    this.anonymous = limits.limiter('links.anonymous-visitors', ANONYMOUS_VISITORS_PER_ADDRESS, VIEW_WINDOW_SECONDS);
  }

  visitorKey(linkId: string, viewer: User | undefined, visit: Visit): string {
    if (viewer) return `u:${viewer.id}`;
    const session = visit.sessionId?.trim();
    if (session && UUID.test(session)) return `s:${session.toLowerCase()}`;
    const hash = crypto.createHmac('sha256', this.addressKey).update(`${linkId}|${visit.address}`).digest('base64url');
    return `a:${hash}`;
  }

  /** Whether this visitor's view of the link already counted within the hour (committed data). */
  seenRecently(em: EntityManager, linkId: string, visitorKey: string, now: Date): Promise<boolean> {
    return countedSince(em, linkId, visitorKey, new Date(now.getTime() - VIEW_WINDOW_SECONDS * 1000));
  }

  /** Whether the address still has budget for new anonymous visitors of the link (spends nothing). */
  async anonymousBudgetLeft(linkId: string, address: string): Promise<boolean> {
    const used = await this.anonymous.get(`${linkId}:${address}`);
    return !used || used.consumedPoints < ANONYMOUS_VISITORS_PER_ADDRESS;
  }

  /**
   * An anonymous visit that counts spends from its address's hourly budget for the link; false once
   * spent. Asked only once the view is known to count (`record`), so a browser's racing repeats,
   * of which one counts, spend it once.
   */
  async admitAnonymous(linkId: string, address: string): Promise<boolean> {
    try {
      await this.anonymous.consume(`${linkId}:${address}`);
      return true;
    } catch (res) {
      if (res instanceof RateLimiterRes) return false;
      throw res;
    }
  }

  /**
   * Records the visit and answers whether it counts as a view, in one statement: the visitor's
   * row is inserted (with its source and device: a visitor's first visit decides them), or its
   * `counted_at` moved on when the last counted view is over an hour old; a repeat within the hour
   * matches neither and writes nothing. Racing repeats count once (the unique (link_id,
   * visitor_key) decides) on SQLite and PostgreSQL alike. A counted view also adds to the link's
   * day (`link_view_days`): one view, and one visitor when this visitor had not counted that day.
   */
  async record(em: EntityManager, linkId: string, visitorKey: string, userId: string | null, now: Date, visit?: Visit): Promise<boolean> {
    const last = await lastCounted(em, linkId, visitorKey);
    const visitor = {
      id: crypto.randomUUID(),
      linkId,
      visitorKey,
      userId,
      at: now,
      source: visit?.source ?? null,
      device: visit?.device ?? null,
    };
    if (!(await countVisit(em, visitor, new Date(now.getTime() - VIEW_WINDOW_SECONDS * 1000)))) return false;
    const newVisitorToday = (last ? utcDay(last) : null) !== utcDay(now) ? 1 : 0;
    await addToViewDay(em, linkId, utcDay(now), newVisitorToday);
    return true;
  }
}
