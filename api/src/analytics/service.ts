import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import { badRequest, tooLarge } from '../errors.js';
import {
  ANALYTICS_DETAILS_MAX_BYTES,
  ANALYTICS_PAGE_URL_MAX_LENGTH,
  ENVELOPE_RULES,
  detailsBytes,
  emittedRecord,
  eventDetailsError,
  type AnalyticsEventType,
} from '../../contract/analytics.js';
import { AnalyticsEventEntity, type AnalyticsEvent, type AnalyticsKind } from './entity.js';
import { appendedRowId } from '../db/ids.js';

/** Rows per insert statement (7 parameters each: well inside SQLite's and PostgreSQL's limits). */
const BATCH = 500;
/** How long an accepted event waits at most before it is written. */
const FLUSH_MS = 50;
/** Past this many unwritten events (the database cannot keep up) new ones are dropped and logged. */
const MAX_PENDING = 20_000;

/** Who sends an event: the browser session, and the signed-in user from the request's session. */
export interface Sender {
  sessionId: string;
  userId: string | null;
}

/**
 * Analytics ingestion. The calls answer 204 as soon as an event is checked: accepted events wait
 * in memory for at most FLUSH_MS and are written many to a transaction, so a burst of page views
 * costs the database a few inserts and never queues ahead of a give on SQLite's one writer. An
 * event is best-effort: a process that stops loses at most the last FLUSH_MS of them.
 */
export class AnalyticsIngest {
  private pending: AnalyticsEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  startSession(sender: Sender): void {
    this.add(sender, 'sessionStart', null, null);
  }

  pageview(sender: Sender, pageUrl: string): void {
    this.add(sender, 'pageview', null, pageUrl);
  }

  /**
   * One of PRODUCT.md §3's four events: 413 when its payload is over ANALYTICS_DETAILS_MAX_BYTES, 400
   * with PRODUCT.md §5's message for the first rule it breaks; else its emitted record is stored.
   */
  logEvent(sender: Sender, event: { type: AnalyticsEventType; details: unknown; pageUrl: string; userAgent: string | null }): void {
    if (detailsBytes(event.details) > ANALYTICS_DETAILS_MAX_BYTES) throw tooLarge(ENVELOPE_RULES.detailsTooLarge);
    const broken = eventDetailsError(event.type, event.details);
    if (broken) throw badRequest(broken, 'validation_failed');
    const record = emittedRecord(event.type, event.details, { userAgent: event.userAgent, pageUrl: event.pageUrl, now: new Date() });
    this.add(sender, event.type, JSON.stringify(record), event.pageUrl);
  }

  /** Writes everything accepted so far (tests, shutdown). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.pending;
    this.pending = [];
    const write = this.writing.then(() => this.write(rows));
    this.writing = write;
    await write;
  }

  private add(sender: Sender, kind: AnalyticsKind, details: string | null, pageUrl: string | null): void {
    if (this.pending.length >= MAX_PENDING) {
      if (this.dropped++ % 1000 === 0) this.log.warn({ dropped: this.dropped }, 'analytics: events dropped, the database is behind');
      return;
    }
    this.pending.push({
      id: appendedRowId(),
      sessionId: sender.sessionId.toLowerCase(),
      userId: sender.userId,
      eventType: kind,
      eventDetails: details,
      pageUrl: pageUrl ? pageUrl.slice(0, ANALYTICS_PAGE_URL_MAX_LENGTH) : null,
      createdAt: new Date(),
    });
    if (this.pending.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  private async write(rows: AnalyticsEvent[]): Promise<void> {
    if (!rows.length) return;
    try {
      await this.db.transaction(async (em) => {
        for (let i = 0; i < rows.length; i += BATCH)
          await em
            .createQueryBuilder()
            .insert()
            .into(AnalyticsEventEntity)
            .values(rows.slice(i, i + BATCH))
            .updateEntity(false)
            .execute();
      });
    } catch (err) {
      this.log.error({ err, events: rows.length }, 'analytics: writing events failed');
    }
  }
}
