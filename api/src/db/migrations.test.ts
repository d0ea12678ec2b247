import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { freshPostgres } from './fresh-postgres.js';
import { openDatabase } from './index.js';
import { migrations, schema } from '../schema.js';
import { ConversationIdentity1763870600000 } from './migrations/1763870600000-conversation-identity.js';
import { MessageSeqPerMember1763872300000 } from './migrations/1763872300000-message-seq-per-member.js';
import { recordGiftMessage } from '../conversations/gift-message.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A database migrated up to (not including) `upTo`, through its own connection. */
async function migratedUpTo(upTo: unknown): Promise<{ source: DataSource; env: Record<string, string> }> {
  const before = migrations.slice(0, migrations.indexOf(upTo as (typeof migrations)[number]));
  const base = loadConfig();
  if (base.databaseUrl) {
    const db = await freshPostgres(base.databaseUrl);
    cleanups.push(() => db.drop());
    const source = new DataSource({ type: 'postgres', url: db.url, migrations: before });
    await source.initialize();
    await source.runMigrations({ transaction: 'each' });
    return { source, env: { DATABASE_URL: db.url } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-migrate-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const source = new DataSource({
    type: 'better-sqlite3',
    database: path.join(dir, 'giftlink.sqlite'),
    migrations: before,
    prepareDatabase: (conn: { pragma(s: string): unknown }) => {
      conn.pragma('foreign_keys = ON');
    },
  });
  await source.initialize();
  await source.runMigrations({ transaction: 'each' });
  return { source, env: { DATA_DIR: dir } };
}

describe('upgrading a database with conversations in it', () => {
  it('keys every existing conversation by a fresh pseudonym and keeps every message', async () => {
    const { source, env } = await migratedUpTo(ConversationIdentity1763870600000);
    const [giver, recipient, conversationId] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const now = new Date();
    await source
      .createQueryBuilder()
      .insert()
      .into('conversations')
      .values({
        id: conversationId,
        initiator_id: giver,
        responder_id: recipient,
        initiator_anonymous: true,
        last_message_id: null,
        last_message_at: now,
        created_at: now,
      })
      .execute();
    for (const [i, text] of ['a gift', 'thanks'].entries())
      await source
        .createQueryBuilder()
        .insert()
        .into('messages')
        .values({
          id: crypto.randomUUID(),
          conversation_id: conversationId,
          sender_id: i ? recipient : giver,
          text,
          message_type: i ? 'normal' : 'gift',
          read: false,
          created_at: now,
          seq: i + 1,
        })
        .execute();
    await source.destroy();

    const db = await openDatabase(loadConfig({ LOG_LEVEL: 'silent', ...env }), schema);
    cleanups.push(() => db.close());
    const messages: { text: string }[] = await db.source.query('SELECT text FROM messages ORDER BY seq');
    expect(messages.map((m) => m.text)).toEqual(['a gift', 'thanks']);
    const [conversation]: { pair_key: string }[] = await db.source.query('SELECT pair_key FROM conversations');
    const [pseudonym]: { id: string; giver_id: string; recipient_id: string }[] = await db.source.query(
      'SELECT * FROM anonymous_pseudonyms',
    );
    expect(pseudonym).toMatchObject({ giver_id: giver, recipient_id: recipient });
    expect(conversation.pair_key).toBe(`anon:${pseudonym.id}`);
    expect([giver, recipient]).not.toContain(pseudonym.id);
  });
});

describe.runIf(Boolean(loadConfig().databaseUrl))('upgrading PostgreSQL to message numbers per member', () => {
  it('numbers the next message after the last number the counter gave', async () => {
    const { source, env } = await migratedUpTo(MessageSeqPerMember1763872300000);
    await source.query("UPDATE counters SET value = 41 WHERE name = 'message_seq'");
    await source.destroy();

    const db = await openDatabase(loadConfig({ LOG_LEVEL: 'silent', ...env }), schema);
    cleanups.push(() => db.close());
    const gift = (text: string) =>
      db.transaction((em) =>
        recordGiftMessage(em, {
          giverId: crypto.randomUUID(),
          recipientId: crypto.randomUUID(),
          identity: 'named',
          text,
          gift: { title: '$1.00', giftType: 'currency', img: null },
        }),
      );
    expect((await gift('first after the upgrade')).message.seq).toBe(42);
    expect((await gift('the next')).message.seq).toBe(43);
  });
});
