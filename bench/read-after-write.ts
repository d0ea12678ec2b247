/**
 * `npx tsx bench/read-after-write.ts`: what a key lookup on SQLite's read connection costs when
 * nothing was written since the last read, and when a commit came in between (as under gives,
 * where every signed-in request reads its session and user after others' commits).
 *
 * In WAL mode a connection drops its whole page cache when it starts a read and finds the WAL
 * changed, so after a commit each lookup reads its B-tree pages again (a pread each). Where system
 * calls are dear this, not SQL, is much of a give's reads: see the README's issue 15 item. Then
 * the same for a session and its user: two lookups, or one statement read as arrays.
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

  // A signed-in request's session and user (auth/session.ts): two lookups, or one statement read as
  // arrays, taken in turns so that both see the same WAL.
  const columns = Array.from({ length: 30 }, (_, i) => `c${i} TEXT`).join(', ');
  writer.exec(
    `CREATE TABLE users (id TEXT PRIMARY KEY, ${columns}); CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT, agent TEXT)`,
  );
  const addUser = writer.prepare(`INSERT INTO users VALUES (?${', ?'.repeat(30)})`);
  const addSession = writer.prepare('INSERT INTO sessions VALUES (?, ?, ?)');
  writer.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      addUser.run(`user-${i}`, ...Array.from({ length: 30 }, () => 'value'));
      addSession.run(`session-${i}`, `user-${i}`, 'Chrome on macOS');
    }
  })();
  const sessionById = reader.prepare('SELECT * FROM sessions WHERE id = ?');
  const userById = reader.prepare('SELECT * FROM users WHERE id = ?');
  const both = reader.prepare('SELECT s.*, u.* FROM sessions s, users u WHERE s.id = ? AND u.id = ?').raw(true);
  const ways = [
    (k: number) => [sessionById.get(`session-${k}`), userById.get(`user-${k}`)],
    (k: number) => both.get(`session-${k}`, `user-${k}`),
  ];
  const compare = (writeBetween: boolean): number[] => {
    const spent = [0n, 0n];
    for (let i = 0; i < 2 * LOOKUPS; i++) {
      if (writeBetween) append.run('y');
      const started = process.hrtime.bigint();
      ways[i % 2]((i * 7919) % ROWS);
      spent[i % 2] += process.hrtime.bigint() - started;
    }
    return spent.map((s) => Number(s) / LOOKUPS / 1000);
  };
  compare(false); // warm
  const [twoQuiet, oneQuiet] = compare(false);
  const [twoAfter, oneAfter] = compare(true);
  console.log(`a session and its user (a 30-column row), ${LOOKUPS} reads each way:`);
  console.log(
    `  nothing written since the last read: two lookups ${twoQuiet.toFixed(1)} µs, one statement as arrays ${oneQuiet.toFixed(1)} µs`,
  );
  console.log(
    `  a commit before each read:           two lookups ${twoAfter.toFixed(1)} µs, one statement as arrays ${oneAfter.toFixed(1)} µs`,
  );
  reader.close();
  writer.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
