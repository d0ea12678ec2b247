import pg from 'pg';
import type { Statement, SqlValue } from './sql.js';

/**
 * PostgreSQL reads outside transactions, from every request at once, in as few writes as possible
 *.
 *
 * On this kind of machine a round trip's cost is mostly its write, which wakes PostgreSQL on the
 * other core (pg-transaction.ts). Through the pool, each request's session and link reads took a
 * connection and a write of their own. Here they go to a few long-lived connections in
 * node-postgres's pipeline mode, and a connection's socket is held until the end of this turn of
 * the event loop (its check phase): the reads that every request started in this turn go out in
 * one write, and PostgreSQL answers them in order on that connection.
 *
 * Each read is its own statement in autocommit, so it sees what had committed when it runs, as a
 * read through the pool does. A connection that fails is dropped; its reads fail (as they would on a
 * pooled connection lost), and the next read opens a new one.
 */
export class PgReads {
  private readonly slots: (Connection | undefined)[];
  /** The connection this turn's reads go to, while its socket is held. */
  private current?: Connection;
  private closed = false;

  /** @param size connections: reads take turns within one, so a slow one delays those behind it */
  constructor(
    private readonly config: pg.ClientConfig,
    size = 2,
  ) {
    this.slots = new Array<Connection | undefined>(size).fill(undefined);
  }

  async query<T>(statement: Statement, params: readonly SqlValue[]): Promise<T[]> {
    const connection = this.current ?? this.pick();
    const client = await connection.ready;
    // Once connected: the reads that waited for the connection go out together too.
    connection.holdForTurn();
    const result = await client.query<T & object>({ name: statement.name, text: statement.text, values: [...params] });
    return result.rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = this.slots.filter((c): c is Connection => c !== undefined);
    this.slots.fill(undefined);
    await Promise.all(open.map((c) => c.ready.then((client) => client.end()).catch(() => undefined)));
  }

  /** The connection with the fewest reads waiting: this turn's reads go to it. */
  private pick(): Connection {
    if (this.closed) throw new Error('pg-reads: the database is closed');
    let best = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) {
        best = i;
        break;
      }
      if (slot.waiting() < this.slots[best]!.waiting()) best = i;
    }
    const connection = (this.slots[best] ??= this.open(best));
    this.current = connection;
    setImmediate(() => {
      this.current = undefined;
    });
    return connection;
  }

  private open(slot: number): Connection {
    const client = new pg.Client({ application_name: 'giftlink-reads', ...this.config, pipeline: true } as pg.ClientConfig);
    const drop = () => {
      if (this.slots[slot] === connection) this.slots[slot] = undefined;
    };
    client.on('error', drop);
    client.on('end', drop);
    const ready = client.connect().then(
      () => client,
      (err: unknown) => {
        drop();
        throw err;
      },
    );
    ready.catch(() => undefined);
    const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    const queued = client as unknown as { _queryQueue: unknown[]; _sentQueryQueue: unknown[] };
    let held = false;
    const connection: Connection = {
      ready,
      holdForTurn: () => {
        if (held) return;
        held = true;
        stream.cork();
        setImmediate(() => {
          held = false;
          stream.uncork();
        });
      },
      waiting: () => queued._queryQueue.length + queued._sentQueryQueue.length,
    };
    return connection;
  }
}

interface Connection {
  ready: Promise<pg.Client>;
  /** Holds the socket until this turn's check phase: what is sent meanwhile goes out in one write. */
  holdForTurn(): void;
  /** Reads sent or queued, not yet answered. */
  waiting(): number;
}
