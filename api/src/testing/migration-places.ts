import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { afterAll } from 'vitest';
import { loadConfig } from '../config.js';
import { freshPostgres } from '../db/fresh-postgres.js';
import { migrations } from '../schema.js';

/** The migrations up to and with `name`, in order. */
export const migrationsUpTo = (name: string) => migrations.slice(0, migrations.findIndex((m) => m.name === name) + 1);

/**
 * For a migration test (inside its `describe`): fresh databases to migrate, a PostgreSQL database of
 * its own when DATABASE_URL is set, else a SQLite file with foreign keys on as the server runs it;
 * everything handed to `later` is undone after the tests, last first.
 */
export function migrationPlaces(prefix: string) {
  const steps: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of steps.reverse()) await step();
  });
  const later = (step: () => Promise<void> | void) => void steps.push(step);
  const options = async (): Promise<DataSourceOptions> => {
    const base = loadConfig().databaseUrl;
    if (base) {
      const database = await freshPostgres(base, prefix);
      later(database.drop);
      return { type: 'postgres', url: database.url };
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll('_', '-')}-`));
    later(() => fs.rmSync(dir, { recursive: true, force: true }));
    return {
      type: 'better-sqlite3',
      database: path.join(dir, 'giftlink.sqlite'),
      prepareDatabase: (db: { pragma(s: string): unknown }) => {
        db.pragma('foreign_keys = ON');
      },
    };
  };
  return { options, later };
}
