import { EntitySchema } from 'typeorm';
import { dateColumn, idColumn, refColumn } from '../db/columns.js';

/** What an analytics row records: a session start, a page view, or one of PRODUCT.md §3's four events. */
export type AnalyticsKind = 'sessionStart' | 'pageview' | 'linkTransaction' | 'wishlistTransaction' | 'linkShare' | 'bankTransaction';

/**
 * One analytics event (PRODUCT.md §3's "Analytics event"): the browser session, the signed-in user (from
 * the request's session, never from the body), and for the four events the emitted record as JSON.
 */
export interface AnalyticsEvent {
  id: string;
  sessionId: string;
  userId: string | null;
  eventType: AnalyticsKind;
  /** The emitted record (PRODUCT.md §3), JSON; null for session starts and page views. */
  eventDetails: string | null;
  pageUrl: string | null;
  createdAt: Date;
}

export const AnalyticsEventEntity = new EntitySchema<AnalyticsEvent>({
  name: 'AnalyticsEvent',
  tableName: 'analytics_events',
  columns: {
    id: idColumn,
    sessionId: { type: 'varchar', length: 36, name: 'session_id' },
    userId: { ...refColumn(true), name: 'user_id' },
    eventType: { type: 'varchar', length: 32, name: 'event_type' },
    eventDetails: { type: 'text', nullable: true, name: 'event_details' },
    pageUrl: { type: 'varchar', length: 2048, nullable: true, name: 'page_url' },
    createdAt: { ...dateColumn(), name: 'created_at' },
  },
  indices: [
    { name: 'idx_analytics_events_type_time', columns: ['eventType', 'createdAt'] },
    { name: 'idx_analytics_events_session', columns: ['sessionId'] },
  ],
});
