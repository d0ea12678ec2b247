import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { migrations } from '../schema.js';
import { ReportOnce1763872410000 } from '../db/migrations/1763872410000-report-once.js';
import { freshPostgres } from '../db/fresh-postgres.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A database migrated up to (not including) ReportOnce, on PostgreSQL when DATABASE_URL is set, else SQLite. */
async function beforeReportOnce(): Promise<DataSource> {
  const before = migrations.slice(0, migrations.indexOf(ReportOnce1763872410000));
  const base = loadConfig();
  let source: DataSource;
  if (base.databaseUrl) {
    const db = await freshPostgres(base.databaseUrl);
    cleanups.push(() => db.drop());
    source = new DataSource({ type: 'postgres', url: db.url, migrations: before });
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-report-once-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    source = new DataSource({ type: 'better-sqlite3', database: path.join(dir, 'giftlink.sqlite'), migrations: before });
  }
  await source.initialize();
  cleanups.push(() => source.destroy());
  await source.runMigrations({ transaction: 'each' });
  return source;
}

describe('upgrading a database with repeated reports in it', () => {
  it('keeps one report per message per reporter (an open one, else the earliest), every conversation report, and then refuses repeats', async () => {
    const source = await beforeReportOnce();
    const [reporter, reported, conversation, m1, m2] = Array.from({ length: 5 }, () => crypto.randomUUID());
    const t = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 0, minutes));
    const rows = [
      { key: 'm1-first', message: m1, status: 'open', at: t(1) },
      { key: 'm1-repeat', message: m1, status: 'open', at: t(2) },
      { key: 'm1-third', message: m1, status: 'open', at: t(3) },
      { key: 'm2-resolved', message: m2, status: 'resolved', at: t(1) },
      { key: 'm2-open', message: m2, status: 'open', at: t(2) },
      { key: 'conv-a', message: null, status: 'open', at: t(1) },
      { key: 'conv-b', message: null, status: 'open', at: t(2) },
    ].map((r) => ({ ...r, id: crypto.randomUUID() }));
    const insert = (r: { id: string; message: string | null; status: string; at: Date; key: string }) =>
      source
        .createQueryBuilder()
        .insert()
        .into('reports')
        .values({
          id: r.id,
          reporter_id: reporter,
          reported_id: reported,
          conversation_id: conversation,
          message_id: r.message,
          reason: 'spam',
          note: r.key,
          content: '[]',
          status: r.status,
          created_at: r.at,
          resolved_at: null,
        })
        .execute();
    for (const r of rows) await insert(r);

    const runner = source.createQueryRunner();
    await new ReportOnce1763872410000().up(runner);
    await runner.release();

    const kept: { note: string }[] = await source.query('SELECT note FROM reports ORDER BY note');
    expect(kept.map((r) => r.note)).toEqual(['conv-a', 'conv-b', 'm1-first', 'm2-open']);
    await expect(insert({ id: crypto.randomUUID(), message: m1, status: 'open', at: t(9), key: 'late' })).rejects.toThrow();
    await insert({ id: crypto.randomUUID(), message: null, status: 'open', at: t(9), key: 'conv-c' });
  });
});
