/**
 * `npx tsx bench/read-after-write.ts`: what a key lookup on SQLite's read connection costs when
 * nothing was written since the last read, and when a commit came in between (as under gives,
 * where every signed-in request reads its session and user after others' commits).
 *
 * In WAL mode a connection drops its whole page cache when it starts a read and finds the WAL
 * changed, so after a commit each lookup reads its B-tree pages again (a pread each). Where system
 * calls are dear this, not SQL, is much of a give's reads: see docs/PERFORMANCE.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';

const ROWS = 20_000;
const LOOKUPS = 20_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-raw-'));
try {
  const file = path.join(dir, 'bench.sqlite');
  const writer = new Sqlite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('wal_autocheckpoint = 32768');
  writer.exec('CREATE TABLE rows (id TEXT PRIMARY KEY, body TEXT); CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT)');
  const insert = writer.prepare('INSERT INTO rows VALUES (?, ?)');
  writer.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(`row-${i}`, 'x'.repeat(300));
  })();
  const append = writer.prepare('INSERT INTO log (body) VALUES (?)');
  const reader = new Sqlite(file, { readonly: true });
  const lookup = reader.prepare('SELECT * FROM rows WHERE id = ?');

  const measure = (writeBetween: boolean): number => {
    let spent = 0n;
    for (let i = 0; i < LOOKUPS; i++) {
      if (writeBetween) append.run('y');
      const started = process.hrtime.bigint();
      lookup.get(`row-${(i * 7919) % ROWS}`);
      spent += process.hrtime.bigint() - started;
    }
    return Number(spent) / LOOKUPS / 1000;
  };
  measure(false); // warm
  const quiet = measure(false);
  const afterCommit = measure(true);
  console.log(`key lookup on the read connection, ${LOOKUPS} lookups over ${ROWS} rows:`);
  console.log(`  nothing written since the last read: ${quiet.toFixed(1)} µs`);
  console.log(`  a commit before each lookup:         ${afterCommit.toFixed(1)} µs (${(afterCommit / quiet).toFixed(1)}×)`);
  reader.close();
  writer.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
