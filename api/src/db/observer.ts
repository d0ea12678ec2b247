import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the database tells whoever watches it (the metrics, metrics/metrics.ts); nothing is
 * observed when no one watches. Times are in seconds.
 */
export interface DatabaseObserver {
  /** A transaction settled: from being asked for to its outcome (on SQLite: its group's COMMIT and flush). */
  transaction(seconds: number, committed: boolean): void;
  /** A COMMIT: how long it took, and (SQLite) how many transactions it carried. */
  commit(seconds: number, group?: number): void;
  /** SQLite: a flush of the WAL to the disk, which every answer waits for. */
  flush(seconds: number): void;
  /** What a committed transaction's work counted (`countOnCommit`), once it committed. */
  counted(names: readonly string[]): void;
}

/** What one run of a transaction's work asked to be told once it commits. */
export interface Tally {
  /** Names counted (`countOnCommit`), in order. */
  names: string[];
  /** Users whose money moved (`balanceChangedOnCommit`), each once. */
  balances: Set<string>;
  /** What the work asked to publish (`publishOnCommit`), in order. */
  published: object[];
}

const counting = new AsyncLocalStorage<Tally>();

/**
 * Inside a transaction's work: counts `name` once the transaction has committed (the ledger's
 * transfers by kind). A rolled-back work counts nothing, and a work the group committer runs
 * again counts what its last run did, once.
 */
export function countOnCommit(name: string): void {
  counting.getStore()?.names.push(name);
}

/** Inside a transaction's work: the user's balance (or what of it is held or owed) changed; told once it has committed, as `countOnCommit`. */
export function balanceChangedOnCommit(userId: string): void {
  counting.getStore()?.balances.add(userId);
}

/**
 * Inside a transaction's work: `event` is published once the transaction has committed (the
 * database's `onCommitted`), and not at all if it rolls back. Outside one it is an error: an event
 * must never tell of what may not have happened.
 */
export function publishOnCommit(event: object): void {
  const tally = counting.getStore();
  if (!tally) throw new Error('publishOnCommit outside a transaction');
  tally.published.push(event);
}

/** Runs `work` with a tally of its own, started afresh at each run (a replay starts over). */
export function tallied<A, T>(work: (arg: A) => Promise<T>): { work: (arg: A) => Promise<T>; tally: () => Tally } {
  let tally: Tally = { names: [], balances: new Set(), published: [] };
  return {
    work: (arg) => {
      tally = { names: [], balances: new Set(), published: [] };
      return counting.run(tally, work, arg);
    },
    tally: () => tally,
  };
}
