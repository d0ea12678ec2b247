import crypto from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `instance`: one row naming this database with a random id, and the public URL of the server
 * that last started on it, so `npm run invite` and `npm run moderation` can tell whether they
 * opened the running server's database (db/instance.ts).
 */
export class Instance1763872500000 implements MigrationInterface {
  name = 'Instance1763872500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE instance (id varchar(36) PRIMARY KEY NOT NULL, public_url varchar(2048))');
    const p = q.dataSource.options.type === 'postgres' ? '$1' : '?';
    await q.query(`INSERT INTO instance (id) VALUES (${p})`, [crypto.randomUUID()]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE instance');
  }
}
