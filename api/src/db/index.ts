import path from 'node:path';
import { DataSource, type DataSourceOptions, type EntityManager, type MigrationInterface } from 'typeorm';
import type { Config } from '../config.js';
import { makePrivateDir, makePrivateFile, restrictFiles } from '../files.js';
import { Checkpointer } from './checkpointer.js';
import { GroupCommitter, type TransactionOptions } from './group-commit.js';
import { PgReads } from './pg-reads.js';
import { WalFile, syncFile } from './wal-file.js';
import { pgTransaction } from './pg-transaction.js';
import { tallied, type DatabaseObserver } from './observer.js';

/**
 * What the database holds: every table's entity and every migration, first to last. The
 * composition root lists them (schema.ts), so db/ knows no capability.
 */
export interface Schema {
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: (new () => MigrationInterface)[];
}

/**
 * The database: TypeORM on embedded SQLite (better-sqlite3, one file under DATA_DIR) by default,
 * PostgreSQL when DATABASE_URL is set. Migrations run at start-up.
 */
export class Database {
  /** SQLite has one connection: transactions take turns on it, and commit in groups (group-commit.ts). */
  private readonly writer?: GroupCommitter;
  /** SQLite: copies the WAL into the database file off the main thread (checkpointer.ts). */
  private readonly checkpointer?: Checkpointer;
  /** SQLite: the WAL, held open for the group committer's flushes. */
  private readonly wal?: WalFile;
  /** PostgreSQL: `read`'s connections, which send the reads of every request in one turn together (pg-reads.ts). */
  readonly pgReads?: PgReads;
  /** Whether opening it made it: its first migration ran just now. */
  created = false;
  /**
   * Told, after each commit, what its work asked to publish (`publishOnCommit`) and whose balances it
   * changed (`balanceChangedOnCommit`): the realtime hub sends them.
   */
  onCommitted?: (committed: { published: readonly object[]; balances: readonly string[] }) => void;

  /**
   * @param source the connection every write (and every transaction) goes through
   * @param sqlite SQLite only: its file, and how to open a second, read-only connection for reads
   *   outside transactions, so they see committed data only (the writer's connection would show an
   *   open transaction's uncommitted rows). On PostgreSQL the pool gives every query its own
   *   connection anyway; `read`'s prepared statements go to connections of their own (pg-reads.ts).
   * @param observer told of transactions and COMMITs (the metrics); none, nothing is measured
   */
  constructor(
    readonly source: DataSource,
    private readonly sqlite?: { file: string; openReader: () => Promise<DataSource> },
    private readonly observer?: DatabaseObserver,
  ) {
    if (!sqlite) {
      const { url } = source.options as { url?: string };
      this.pgReads = new PgReads({ connectionString: url });
      return;
    }
    this.wal = new WalFile(`${sqlite.file}-wal`);
    const wal = this.wal;
    this.writer = new GroupCommitter(source, () => wal.sync(), observer);
    const writer = this.writer;
    this.checkpointer = new Checkpointer(sqlite.file, () => writer.commits);
  }

  private reader?: DataSource;

  /** Opens the read connection (SQLite), or a fresh one in place of the old. */
  async refreshReader(): Promise<void> {
    if (!this.sqlite) return;
    const old = this.reader;
    this.reader = await this.sqlite.openReader();
    // Reads already running on the old connection get a moment to finish.
    if (old) setTimeout(() => void old.destroy().catch(() => undefined), 5_000).unref();
  }

  get isPostgres(): boolean {
    return this.source.options.type === 'postgres';
  }

  /** For reads outside a transaction: committed data only. Writes go through `transaction`. */
  get manager(): EntityManager {
    return (this.reader ?? this.source).manager;
  }

  /**
   * Runs `work` in one transaction: all of it or, if it throws, none of it. Every write goes through
   * here. On SQLite transactions are serialised (one connection, one writer) and those asked for
   * together share one COMMIT, each in its own savepoint unless all of them are `replayable`
   * (group-commit.ts); the promise settles once it is durable. On PostgreSQL they run concurrently and rely on conditional updates and
   * constraints; BEGIN and COMMIT share their round trips with other statements (pg-transaction.ts).
   */
  transaction<T>(work: (em: EntityManager) => Promise<T>, options?: TransactionOptions): Promise<T> {
    const { observer, onCommitted } = this;
    const started = performance.now();
    const counted = tallied(work);
    return this.run(counted.work, options).then(
      (value) => {
        observer?.transaction((performance.now() - started) / 1000, true);
        const { names, balances, published } = counted.tally();
        if (names.length) observer?.counted(names);
        if (published.length || balances.size) onCommitted?.({ published, balances: [...balances] });
        return value;
      },
      (err: unknown) => {
        observer?.transaction((performance.now() - started) / 1000, false);
        throw err;
      },
    );
  }

  private run<T>(work: (em: EntityManager) => Promise<T>, options?: TransactionOptions): Promise<T> {
    if (!this.writer) return pgTransaction(this.source, work, this.observer);
    return this.writer.transaction(work, options);
  }

  /** PostgreSQL: the pool's connections, open and idle, and the callers waiting for one (undefined on SQLite). */
  get pool(): { total: number; idle: number; waiting: number } | undefined {
    if (!this.isPostgres) return undefined;
    const pool = (this.source.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  /**
   * Settles once everything committed so far is durable. A read can see a SQLite commit whose WAL
   * is still being flushed; an answer that acknowledges a write from what a read saw (a repeated
   * Idempotency-Key's stored answer) waits for this first. PostgreSQL shows a commit only once it
   * is durable.
   */
  whenDurable(): Promise<void> {
    return this.writer?.whenDurable() ?? Promise.resolve();
  }

  /** SQLite: how many COMMITs the writer has made so far, each carrying a group of transactions (undefined on PostgreSQL). */
  get commits(): number | undefined {
    return this.writer?.commits;
  }

  /**
   * Keeps query plans good. SQLite has no statistics until ANALYZE runs, and without them it
   * picks the expiry index for the feed and sorts every open link (far slower once there are
   * many); `PRAGMA optimize=0x10002` analyses what needs it. PostgreSQL's autovacuum does this.
   */
  async optimize(): Promise<void> {
    if (this.isPostgres) return;
    await this.source.query('PRAGMA optimize=0x10002');
    // A connection keeps the statistics it loaded when it opened: the reader is opened anew.
    await this.refreshReader();
  }

  async close(): Promise<void> {
    await this.whenDurable();
    await this.wal?.close();
    await this.checkpointer?.close();
    if (this.reader?.isInitialized) await this.reader.destroy();
    await this.pgReads?.close();
    if (this.source.isInitialized) await this.source.destroy();
  }
}

export const sqliteFile = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'giftlink.sqlite');

export async function openDatabase(config: Config, schema: Schema, observer?: DatabaseObserver): Promise<Database> {
  const { entities, migrations } = schema;
  let source: DataSource;
  if (config.databaseUrl) {
    source = new DataSource({
      type: 'postgres',
      url: config.databaseUrl,
      entities,
      migrations,
      migrationsRun: false,
      // Pipeline mode: a query goes out without waiting for the answers before it (pg-transaction.ts).
      extra: { max: 20, pipeline: true },
    });
  } else {
    // Owner-only from the first byte: SQLite gives its -wal and -shm files the database's mode.
    makePrivateDir(config.dataDir);
    makePrivateFile(sqliteFile(config));
    source = new DataSource({
      type: 'better-sqlite3',
      database: sqliteFile(config),
      entities,
      migrations,
      migrationsRun: false,
      enableWAL: true,
      prepareDatabase: (db: { pragma(s: string): unknown }) => {
        db.pragma('busy_timeout = 5000');
        db.pragma('foreign_keys = ON');
        // A COMMIT writes the WAL and does not wait for the disk: db/group-commit.ts flushes the WAL
        // (fsync, off the main thread) before anyone hears of what committed, so an answered request
        // survives a power loss too, not only a crash of the process.
        db.pragma('synchronous = NORMAL');
        // Checkpoints run on a thread of their own (db/checkpointer.ts); the COMMIT that takes the
        // WAL past 32,768 pages (128 MiB) finishes one, so that the WAL starts over. That one stops
        // the main thread for two waits for the disk (about 15 ms here); at 8,192 pages it came four
        // times as often, a quarter of all COMMIT time under gives.
        db.pragma('wal_autocheckpoint = 32768');
        // A work of a group that holds one not replayable is a savepoint of the group's transaction
        // (db/group-commit.ts), whose journal of the pages it changed spilled to a temporary file
        // past 64 KiB: in memory, a give's statements took half the time.
        db.pragma('temp_store = MEMORY');
      },
    });
  }
  await source.initialize();
  if (!config.databaseUrl) {
    restrictFiles(['', '-wal', '-shm', '-journal'].map((end) => sqliteFile(config) + end));
    // The WAL's name in its directory is durable before anything is answered from it.
    await syncFile(config.dataDir);
  }
  const ran = await source.runMigrations({ transaction: 'each' });
  const openReader = async () => {
    const reader = new DataSource({
      type: 'better-sqlite3',
      database: sqliteFile(config),
      entities,
      readonly: true,
      prepareDatabase: (conn: { pragma(s: string): unknown }) => {
        conn.pragma('busy_timeout = 5000');
      },
    });
    return reader.initialize();
  };
  const db = new Database(source, config.databaseUrl ? undefined : { file: sqliteFile(config), openReader }, observer);
  db.created = ran.some((m) => m.name === schema.migrations[0].name);
  await db.optimize();
  return db;
}
