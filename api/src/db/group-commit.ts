import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { sqliteHandle } from './sqlite-handle.js';
import type { DatabaseObserver } from './observer.js';

/**
 * SQLite's transactions, serialised on the one writer connection and committed in groups.
 *
 * SQLite has one writer, and better-sqlite3 runs every statement synchronously, with the whole
 * process stopped. So the transactions asked for in the same turn of the event loop, or while a
 * group is committing, run one after the other inside ONE transaction, each in its own savepoint,
 * and one COMMIT carries them all; the COMMIT only writes the WAL (synchronous=NORMAL), and the
 * wait for the disk (`flush`, an fsync of the WAL on libuv's thread pool) runs off the main thread
 * while the next group already runs:
 *
 * - each `work` still runs alone on the connection, in the order asked, and sees what the works
 *   before it wrote, as it would have seen it committed;
 * - a `work` that throws is rolled back to its savepoint: nothing of it stays, and the others go on;
 * - a group of only `replayable` works runs with no savepoint at all (a savepoint per work copies
 *   every page the work writes, and cost a sixth of a give). If one of them throws, the
 *   whole transaction is rolled back and the group runs again, each work in its own savepoint, so
 *   the one that threw is rolled back alone and the others are stored as they ran the second time.
 *   A replayable work touches nothing but the database through `em` and answers its value: running
 *   it twice must look, to everyone, like running it once;
 * - while a flush waits for the disk, a transaction of only replayable works stays open and the
 *   next groups of replayable works run in it; it commits when the flush ends. The works still run
 *   beside the disk's wait, and one COMMIT writes the pages they share once (a give's user, link
 *   and index pages), where each group's COMMIT wrote them again. If one of them throws, every
 *   work of the transaction runs again, each in its own savepoint, as above. Not while another
 *   process writes the same file (several nodes on one SQLite file; its commits change the
 *   writer's `data_version`): a transaction open through a flush would hold that process's writer
 *   back, whose busy handler sleeps on its main thread for the flush's wait and more. Then each
 *   transaction commits as soon as its group has run;
 * - every caller's promise settles only after its COMMIT and a flush that began after it: a result
 *   is durable (a power loss keeps it) before anyone hears of it, and callers hear in the order
 *   their works ran;
 * - if the COMMIT itself fails, nothing of the group is stored and every caller gets the error;
 * - if a flush fails, what the disk holds is unknown (PostgreSQL stops for the same reason): the
 *   error is thrown out of the event loop and the process stops, and the restart recovers from
 *   what the WAL really holds. Nobody has been told of a result that was not durable.
 */
interface Queued {
  work: (em: EntityManager) => Promise<unknown>;
  replayable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface TransactionOptions {
  /**
   * The work touches nothing but the database through `em` and answers its value (it pushes to no
   * outside array, calls nothing outside), so it may be run again after a rollback: on SQLite a
   * group of such works runs with no savepoints (see above).
   */
  replayable?: boolean;
}

/** The most transactions one COMMIT carries. */
const MAX_GROUP = 128;
/** How long after another process's last commit to the file the writer keeps no transaction open through a flush. */
const SHARED_FOR_MS = 10_000;

/** The writer's transaction, open from its first group to its COMMIT. */
interface Open {
  runner: QueryRunner;
  /** Every work run in it, in the order they ran: a replay runs them all again. */
  works: Queued[];
  /** How to settle each work's caller, in the same order, once the COMMIT is durable. */
  outcomes: (() => void)[];
  /**
   * Every work in it is replayable and ran without a savepoint: while a flush waits for the disk,
   * the next groups run in it too, and it commits once the flush ends (one COMMIT writes each page
   * they share once). Otherwise it commits as soon as its group has run.
   */
  growing: boolean;
  /** What stopped it (BEGIN, a savepoint, a rollback failed): nothing of it is stored. */
  failed?: unknown;
}

export class GroupCommitter {
  private queued: Queued[] = [];
  private running = false;
  private open?: Open;
  /** Settlements of committed works, in the order they ran: waiting for a flush that begins after their COMMIT. */
  private unflushed: (() => void)[] = [];
  private flushing = false;
  /** Groups committed so far (the checkpointer runs when there are new ones). */
  commits = 0;
  /** The writer's `data_version` when last read: another connection's commit changes it. */
  private dataVersion?: number;
  /** Until when another process counts as writing the file too. */
  private sharedUntil = 0;

  /**
   * @param flush makes what the writer has committed durable (an fsync of the WAL).
   * @param observer told how long each COMMIT and flush took, and each COMMIT's group size
   */
  constructor(
    private readonly source: DataSource,
    private readonly flush: () => Promise<void>,
    private readonly observer?: Pick<DatabaseObserver, 'commit' | 'flush'>,
  ) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>, { replayable = false }: TransactionOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ work, replayable, resolve: resolve as (value: unknown) => void, reject });
      this.start();
    });
  }

  /**
   * Settles once everything committed so far is durable: for an answer made of what a read saw
   * (a repeated Idempotency-Key's stored answer), which may have committed and not yet be flushed.
   */
  whenDurable(): Promise<void> {
    if (!this.running && !this.flushing && !this.open && !this.unflushed.length) return Promise.resolve();
    // An empty work in the next group: settled after its COMMIT and a flush that begins after it.
    return this.transaction(async () => undefined, { replayable: true });
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    // Transactions asked for in this turn of the event loop (the requests read together) join this group.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const room = MAX_GROUP - (this.open?.works.length ?? 0);
        if (this.queued.length && room > 0) await this.run(this.queued.splice(0, room));
        const open = this.open;
        if (open && (!this.flushing || !open.growing || open.works.length >= MAX_GROUP)) await this.commit(open);
        // A growing transaction left open commits when the flush ends (flushCommitted starts this again).
        if (!this.queued.length && !(this.open && !this.flushing)) break;
      }
    } finally {
      this.running = false;
    }
  }

  /** Runs `group` in the open transaction (a new one if none is open). */
  private async run(group: Queued[]): Promise<void> {
    if (!this.open) {
      this.open = { runner: this.source.createQueryRunner(), works: [], outcomes: [], growing: true };
      try {
        this.open.growing = !this.sharedFile();
        await this.open.runner.startTransaction();
      } catch (err) {
        this.fail(this.open, err);
      }
    }
    const open = this.open;
    const first = !open.works.length;
    open.works.push(...group);
    if (open.failed) return;
    try {
      if (first && group.length === 1) {
        const outcome = await alone(open.runner, group[0]);
        open.outcomes.push(outcome);
        // Rolled back if it threw: the transaction is over.
        open.growing &&= group[0].replayable && open.runner.isTransactionActive;
      } else if (open.growing && group.every((queued) => queued.replayable)) {
        const { outcomes, replayed } = await optimistically(open.runner, group, open.works);
        if (replayed) {
          // Every work of the transaction ran again, each in its own savepoint: it commits now.
          open.outcomes = outcomes;
          open.growing = false;
        } else open.outcomes.push(...outcomes);
      } else {
        for (const queued of group) open.outcomes.push(await inSavepoint(open.runner, queued));
        open.growing = false;
      }
    } catch (err) {
      this.fail(open, err);
    }
  }

  /** Whether another process has lately committed to the file (see above). */
  private sharedFile(): boolean {
    const version = writerStatements(this.source).dataVersion.get()!;
    if (this.dataVersion !== undefined && version !== this.dataVersion) this.sharedUntil = Date.now() + SHARED_FOR_MS;
    this.dataVersion = version;
    return Date.now() < this.sharedUntil;
  }

  /** Nothing of `open` will be stored: it takes no more works and ends at once, refusing them all. */
  private fail(open: Open, err: unknown): void {
    open.failed = err;
    open.growing = false;
  }

  private async commit(open: Open): Promise<void> {
    this.open = undefined;
    const { runner } = open;
    let outcomes = open.outcomes;
    try {
      if (open.failed) throw open.failed;
      if (runner.isTransactionActive) {
        const committing = this.observer && performance.now();
        await runner.commitTransaction();
        if (committing !== undefined) this.observer?.commit((performance.now() - committing) / 1000, open.works.length);
      }
    } catch (err) {
      // The transaction could not commit: nothing of it is stored.
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      outcomes = open.works.map((queued) => () => queued.reject(err));
    } finally {
      await runner.release();
    }
    // Refusals too wait their turn: callers hear in the order their works ran.
    this.commits++;
    this.unflushed.push(...outcomes);
    void this.flushCommitted();
  }

  /**
   * Flushes, then settles what had committed before the flush began; again while more committed
   * meanwhile. (Letting a second flush begin while one waits for the disk measured no faster.)
   */
  private async flushCommitted(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.unflushed.length) {
        const committed = this.unflushed;
        this.unflushed = [];
        const flushing = this.observer && performance.now();
        await this.flush();
        if (flushing !== undefined) this.observer?.flush((performance.now() - flushing) / 1000);
        for (const settle of committed) settle();
      }
      this.flushing = false;
      // A transaction that grew while the disk was busy commits now.
      if (this.open) this.start();
    } catch (err) {
      // The disk's state is unknown: stop the process rather than answer anyone (see above).
      setImmediate(() => {
        throw err;
      });
    }
  }
}

/** A group of one: the transaction is its own, rolled back if it throws. */
async function alone(runner: QueryRunner, queued: Queued): Promise<() => void> {
  try {
    const value = await queued.work(runner.manager);
    return () => queued.resolve(value);
  } catch (err) {
    await runner.rollbackTransaction().catch(() => undefined);
    return () => queued.reject(err);
  }
}

/**
 * Runs a group of replayable works one after the other with no savepoint, and answers their
 * settlements. If one throws, rolls the whole transaction back and runs again, each in its own
 * savepoint, every work it had run (`all`, this group included), and answers the settlements of all.
 */
async function optimistically(
  runner: QueryRunner,
  group: Queued[],
  all: Queued[],
): Promise<{ outcomes: (() => void)[]; replayed: boolean }> {
  const values: unknown[] = [];
  try {
    for (const queued of group) values.push(await queued.work(runner.manager));
    return { outcomes: group.map((queued, i) => () => queued.resolve(values[i])), replayed: false };
  } catch {
    await runner.rollbackTransaction();
    await runner.startTransaction();
    const outcomes: (() => void)[] = [];
    for (const queued of all) outcomes.push(await inSavepoint(runner, queued));
    return { outcomes, replayed: true };
  }
}

/** Runs one work of a group in its own savepoint and answers how to settle its caller after the COMMIT. */
async function inSavepoint(runner: QueryRunner, queued: Queued): Promise<() => void> {
  const savepoint = writerStatements(runner.connection);
  savepoint.begin.run();
  try {
    const value = await queued.work(runner.manager);
    savepoint.release.run();
    return () => queued.resolve(value);
  } catch (err) {
    savepoint.rollback.run();
    savepoint.release.run();
    return () => queued.reject(err);
  }
}

interface WriterStatements {
  begin: BetterSqlite3.Statement;
  release: BetterSqlite3.Statement;
  rollback: BetterSqlite3.Statement;
  dataVersion: BetterSqlite3.Statement<[], number>;
}

const prepared = new WeakMap<BetterSqlite3.Database, WriterStatements>();

/** Prepared once on the writer's better-sqlite3 handle: a savepoint per work, and the file's `data_version`. */
function writerStatements(source: DataSource): WriterStatements {
  const conn = sqliteHandle(source);
  let s = prepared.get(conn);
  if (!s) {
    s = {
      begin: conn.prepare('SAVEPOINT group_work'),
      release: conn.prepare('RELEASE group_work'),
      rollback: conn.prepare('ROLLBACK TO group_work'),
      dataVersion: conn.prepare<[], number>('PRAGMA data_version').pluck(),
    };
    prepared.set(conn, s);
  }
  return s;
}
