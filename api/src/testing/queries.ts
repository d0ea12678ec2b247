import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * The SQL statements that read the conversation or message tables while `work` runs, counted where
 * they reach the database driver (better-sqlite3's statements, node-postgres's queries), so that
 * TypeORM's queries and our prepared statements (db/sql.ts) are both seen.
 */
export async function conversationQueries(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const counted = (text: string) => {
    if (/\b(messages|conversations)\b/i.test(text)) count += 1;
  };
  const restore: (() => void)[] = [];
  if (process.env.DATABASE_URL) {
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const [config] = args;
      counted(typeof config === 'string' ? config : String((config as { text?: string } | undefined)?.text ?? ''));
      return original.apply(this, args);
    };
    restore.push(() => (proto.query = original));
  } else {
    const probe = new BetterSqlite3(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
      'all' | 'get' | 'run' | 'iterate',
      (...args: unknown[]) => unknown
    >;
    probe.close();
    for (const method of ['all', 'get', 'run', 'iterate'] as const) {
      const original = proto[method];
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        counted(this.source);
        return original.apply(this, args);
      };
      restore.push(() => (proto[method] = original));
    }
  }
  try {
    await work();
  } finally {
    for (const undo of restore) undo();
  }
  return count;
}
