import crypto from 'node:crypto';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { EntityManager } from 'typeorm';
import { dateParam } from '../db/dates.js';
import type { RateLimits } from '../limits/rate-limits.js';
import type { VisitorDevice, VisitorSource } from '../../contract/analytics.js';
import type { User } from '../users/entity.js';

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
  async seenRecently(em: EntityManager, linkId: string, visitorKey: string, now: Date): Promise<boolean> {
    return em
      .createQueryBuilder()
      .select('1')
      .from('link_visitors', 'v')
      .where('v.link_id = :linkId AND v.visitor_key = :visitorKey', { linkId, visitorKey })
      .andWhere('v.counted_at > :since', { since: dateParam(em, new Date(now.getTime() - VIEW_WINDOW_SECONDS * 1000)) })
      .getRawOne()
      .then((row) => row !== undefined);
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
    const at = dateParam(em, now);
    const since = dateParam(em, new Date(now.getTime() - VIEW_WINDOW_SECONDS * 1000));
    const pg = em.dataSource.driver.options.type === 'postgres';
    const $ = (i: number) => (pg ? `$${i}` : '?');
    const before: { counted_at: Date | string | null }[] = await em.query(
      `SELECT counted_at FROM link_visitors WHERE link_id = ${$(1)} AND visitor_key = ${$(2)}`,
      [linkId, visitorKey],
    );
    const params = [crypto.randomUUID(), linkId, visitorKey, userId, at, at, visit?.source ?? null, visit?.device ?? null, since];
    const rows: unknown[] = await em.query(
      `INSERT INTO link_visitors (id, link_id, visitor_key, user_id, created_at, counted_at, source, device)
       VALUES (${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${$(8)})
       ON CONFLICT (link_id, visitor_key) DO UPDATE SET counted_at = excluded.counted_at
       WHERE link_visitors.counted_at IS NULL OR link_visitors.counted_at <= ${$(9)}
       RETURNING id`,
      params,
    );
    if (rows.length === 0) return false;
    const last = before[0]?.counted_at;
    const lastDay = last ? utcDay(typeof last === 'string' ? new Date(`${last.replace(' ', 'T')}Z`) : last) : null;
    const newVisitorToday = lastDay !== utcDay(now) ? 1 : 0;
    await em.query(
      `INSERT INTO link_view_days (link_id, day, views, visitors) VALUES (${$(1)}, ${$(2)}, 1, ${$(3)})
       ON CONFLICT (link_id, day) DO UPDATE SET views = link_view_days.views + 1, visitors = link_view_days.visitors + excluded.visitors`,
      [linkId, utcDay(now), newVisitorToday],
    );
    return true;
  }
}
