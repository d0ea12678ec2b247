import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * SQLite's transactions, serialised on the one writer connection and committed in groups (issue 15).
 *
 * SQLite has one writer, and better-sqlite3 commits synchronously: each COMMIT waits for its fsync
 * (synchronous=FULL) with the whole process stopped, a quarter of a millisecond on an idle disk and
 * several on a busy one. So the transactions asked for in the same turn of the event loop, or while
 * a group is committing, run one after the other inside ONE transaction, each in its own savepoint,
 * and one COMMIT (one fsync) makes them all durable:
 *
 * - each `work` still runs alone on the connection, in the order asked, and sees what the works
 *   before it wrote, as it would have seen it committed;
 * - a `work` that throws is rolled back to its savepoint: nothing of it stays, and the others go on;
 * - every caller's promise settles only after the COMMIT: a result is durable before anyone hears
 *   of it, and a failure is reported once what committed with it is visible to other connections
 *   (a racing repeat of an Idempotency-Key then finds the first request's answer);
 * - if the COMMIT itself fails, nothing of the group is stored and every caller gets the error.
 */
interface Queued {
  work: (em: EntityManager) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The most transactions one COMMIT carries. */
const MAX_GROUP = 128;

export class GroupCommitter {
  private queued: Queued[] = [];
  private running = false;

  constructor(private readonly source: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.running) return;
      this.running = true;
      // Transactions asked for in this turn of the event loop (the requests read together) join this group.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length) await this.commit(this.queued.splice(0, MAX_GROUP));
    } finally {
      this.running = false;
    }
  }

  private async commit(group: Queued[]): Promise<void> {
    const runner = this.source.createQueryRunner();
    let outcomes: (() => void)[] = [];
    try {
      await runner.startTransaction();
      if (group.length === 1) outcomes.push(await alone(runner, group[0]));
      else for (const queued of group) outcomes.push(await inSavepoint(runner, queued));
      if (runner.isTransactionActive) await runner.commitTransaction();
    } catch (err) {
      // The group could not commit: nothing of it is stored.
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      outcomes = group.map((queued) => () => queued.reject(err));
    } finally {
      await runner.release();
    }
    for (const settle of outcomes) settle();
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

/** Runs one work of a group in its own savepoint and answers how to settle its caller after the COMMIT. */
async function inSavepoint(runner: QueryRunner, queued: Queued): Promise<() => void> {
  const savepoint = savepointStatements(runner);
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

interface SavepointStatements {
  begin: BetterSqlite3.Statement;
  release: BetterSqlite3.Statement;
  rollback: BetterSqlite3.Statement;
}

const savepoints = new WeakMap<BetterSqlite3.Database, SavepointStatements>();

/** Prepared once on the writer's better-sqlite3 handle: a group runs a savepoint per work. */
function savepointStatements(runner: QueryRunner): SavepointStatements {
  const conn = (runner.connection.driver as unknown as { databaseConnection: BetterSqlite3.Database }).databaseConnection;
  let s = savepoints.get(conn);
  if (!s) {
    s = {
      begin: conn.prepare('SAVEPOINT group_work'),
      release: conn.prepare('RELEASE group_work'),
      rollback: conn.prepare('ROLLBACK TO group_work'),
    };
    savepoints.set(conn, s);
  }
  return s;
}
