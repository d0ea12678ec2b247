import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `inbox_versions`: a number per member that moves whenever anything their first inbox page shows
 * may have changed, so a server can keep that page until it moves (conversations/inbox-pages.ts).
 * No row means 0. Triggers bump it, in the writer's transaction, from every input of the page
 * (conversations/store.ts, `conversationViews`):
 *
 * - a conversation's row, inserted, updated (its last message, who is anonymous) or deleted: both
 *   members. A new message is seen there: every writer of one makes it its conversation's last in
 *   the same statement or transaction (gift-store.ts, note-store.ts, message-store.ts), so messages
 *   need no insert trigger, which would bump the same two rows again on every message;
 * - a message deleted, or updated in a column the page shows or counts (its text, gift, read
 *   marker, number): both members of its conversation, for the last message and the unread count;
 * - a user's username, display name, picture or badge (`subscribed_until`): the
 *   other member of each conversation that names them. A persona is never named, so an anonymous
 *   giver's own changes do not touch their recipient's page, nor its timing. The trigger is limited
 *   to those columns, so the balance updates of every give never run it.
 *
 * PostgreSQL bumps once per conversation row and once per statement on messages (a read marker over
 * many is one bump), members in id order within a statement; message writers hold their members'
 * locks first (member-locks-store.ts). SQLite has row triggers only, each an upsert; it has one writer.
 */
export class InboxVersions1763872600000 implements MigrationInterface {
  name = 'InboxVersions1763872600000';

  async up(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type === 'postgres') return postgresUp(q);
    await q.query('CREATE TABLE inbox_versions (user_id varchar PRIMARY KEY NOT NULL, version bigint NOT NULL) WITHOUT ROWID');
    for (const statement of SQLITE_TRIGGERS) await q.query(statement);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.dataSource.driver.options.type === 'postgres') {
      for (const [name, table] of POSTGRES_TRIGGER_NAMES) await q.query(`DROP TRIGGER ${name} ON ${table}`);
      for (const fn of ['inbox_conversation_changed()', 'inbox_messages_changed()', 'inbox_member_changed()', 'inbox_bump(varchar[])'])
        await q.query(`DROP FUNCTION ${fn}`);
    } else for (const [name] of SQLITE_TRIGGER_NAMES) await q.query(`DROP TRIGGER ${name}`);
    await q.query('DROP TABLE inbox_versions');
  }
}

/** SQLite: bump member `who` (an expression), or each user id a `SELECT … WHERE …` answers. */
const bump = (who: string) =>
  `INSERT INTO inbox_versions (user_id, version) VALUES (${who}, 1) ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
const bumpAll = (select: string) =>
  `INSERT INTO inbox_versions (user_id, version) ${select} ON CONFLICT (user_id) DO UPDATE SET version = version + 1;`;
/** SQLite: the two members of the conversations `ids` (an SQL list), as (user id, 1) rows. */
const membersOf = (ids: string) =>
  `SELECT initiator_id, 1 FROM conversations WHERE id IN (${ids}) UNION SELECT responder_id, 1 FROM conversations WHERE id IN (${ids})`;

/** The message columns the page shows or counts. */
const MESSAGE_COLUMNS = [
  'conversation_id',
  'sender_id',
  'text',
  'message_type',
  'gift_title',
  'gift_type',
  'gift_img',
  'read',
  'created_at',
  'seq',
];
/** The user columns the page shows of the other member. */
const USER_COLUMNS = ['username', 'display_name', 'profile_picture', 'subscribed_until'];
/** SQLite: the other member of each conversation that names user `id`. */
const NAMED_PARTNERS = (id: string) =>
  `SELECT responder_id, 1 FROM conversations WHERE initiator_id = ${id} AND NOT initiator_anonymous
   UNION SELECT initiator_id, 1 FROM conversations WHERE responder_id = ${id}`;
const changedSqlite = (columns: string[]) => columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

const SQLITE_TRIGGER_NAMES = [
  ['inbox_conversation_insert', `AFTER INSERT ON conversations BEGIN ${bump('NEW.initiator_id')} ${bump('NEW.responder_id')} END`],
  [
    'inbox_conversation_update',
    `AFTER UPDATE ON conversations BEGIN ${bump('NEW.initiator_id')} ${bump('NEW.responder_id')}
     ${bumpAll('SELECT OLD.initiator_id, 1 WHERE OLD.initiator_id IS NOT NEW.initiator_id')}
     ${bumpAll('SELECT OLD.responder_id, 1 WHERE OLD.responder_id IS NOT NEW.responder_id')} END`,
  ],
  ['inbox_conversation_delete', `AFTER DELETE ON conversations BEGIN ${bump('OLD.initiator_id')} ${bump('OLD.responder_id')} END`],
  [
    'inbox_message_update',
    `AFTER UPDATE OF ${MESSAGE_COLUMNS.join(', ')} ON messages WHEN ${changedSqlite(MESSAGE_COLUMNS)}
     BEGIN ${bumpAll(membersOf('OLD.conversation_id, NEW.conversation_id'))} END`,
  ],
  ['inbox_message_delete', `AFTER DELETE ON messages BEGIN ${bumpAll(membersOf('OLD.conversation_id'))} END`],
  [
    'inbox_member_update',
    `AFTER UPDATE OF ${USER_COLUMNS.join(', ')} ON users WHEN ${changedSqlite(USER_COLUMNS)} BEGIN ${bumpAll(NAMED_PARTNERS('NEW.id'))} END`,
  ],
] as const;
const SQLITE_TRIGGERS = SQLITE_TRIGGER_NAMES.map(([name, body]) => `CREATE TRIGGER ${name} ${body}`);

const POSTGRES_TRIGGER_NAMES = [
  ['inbox_conversation_change', 'conversations'],
  ['inbox_message_update', 'messages'],
  ['inbox_message_delete', 'messages'],
  ['inbox_member_update', 'users'],
] as const;

const distinctPg = (columns: string[], a: string, b: string) =>
  `(${columns.map((c) => `${a}.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `${b}.${c}`).join(', ')})`;

async function postgresUp(q: QueryRunner): Promise<void> {
  await q.query('CREATE TABLE inbox_versions (user_id varchar PRIMARY KEY, version bigint NOT NULL)');
  await q.query(`
    CREATE FUNCTION inbox_bump(ids varchar[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(ids) = 0 THEN RETURN; END IF;
      INSERT INTO inbox_versions (user_id, version)
        SELECT DISTINCT x, 1 FROM unnest(ids) AS t(x) WHERE x IS NOT NULL ORDER BY 1
        ON CONFLICT (user_id) DO UPDATE SET version = inbox_versions.version + 1;
    END $$`);
  // A row trigger: one row a statement everywhere but a batch of messages, and no transition tables to fill.
  await q.query(`
    CREATE FUNCTION inbox_conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE ids varchar[];
    BEGIN
      IF TG_OP = 'DELETE' THEN ids := ARRAY[OLD.initiator_id, OLD.responder_id];
      ELSIF TG_OP = 'INSERT' THEN ids := ARRAY[NEW.initiator_id, NEW.responder_id];
      ELSE ids := ARRAY[NEW.initiator_id, NEW.responder_id, OLD.initiator_id, OLD.responder_id];
      END IF;
      INSERT INTO inbox_versions (user_id, version)
        SELECT DISTINCT x, 1 FROM unnest(ids) AS t(x) ORDER BY 1
        ON CONFLICT (user_id) DO UPDATE SET version = inbox_versions.version + 1;
      RETURN NULL;
    END $$`);
  await q.query(`
    CREATE FUNCTION inbox_messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- changed: the statement's new rows (its old ones on DELETE); gone: the old ones on UPDATE.
      IF TG_OP = 'UPDATE' THEN
        PERFORM inbox_bump(ARRAY(
          SELECT x FROM conversations c, LATERAL (VALUES (c.initiator_id), (c.responder_id)) AS m(x)
          WHERE c.id IN (SELECT unnest(ARRAY[o.conversation_id, n.conversation_id]) FROM changed n JOIN gone o ON o.id = n.id
                         WHERE ${distinctPg(MESSAGE_COLUMNS, 'o', 'n')})));
      ELSE
        PERFORM inbox_bump(ARRAY(
          SELECT x FROM conversations c, LATERAL (VALUES (c.initiator_id), (c.responder_id)) AS m(x)
          WHERE c.id IN (SELECT conversation_id FROM changed)));
      END IF;
      RETURN NULL;
    END $$`);
  await q.query(`
    CREATE FUNCTION inbox_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM inbox_bump(ARRAY(SELECT responder_id FROM conversations WHERE initiator_id = OLD.id AND NOT initiator_anonymous
                               UNION SELECT initiator_id FROM conversations WHERE responder_id = OLD.id));
      RETURN NULL;
    END $$`);
  await q.query(
    'CREATE TRIGGER inbox_conversation_change AFTER INSERT OR UPDATE OR DELETE ON conversations FOR EACH ROW EXECUTE FUNCTION inbox_conversation_changed()',
  );
  const fn = 'inbox_messages_changed()';
  await q.query(
    `CREATE TRIGGER inbox_message_update AFTER UPDATE ON messages REFERENCING OLD TABLE AS gone NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
  await q.query(
    `CREATE TRIGGER inbox_message_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
  await q.query(
    `CREATE TRIGGER inbox_member_update AFTER UPDATE OF ${USER_COLUMNS.join(', ')} ON users FOR EACH ROW
     WHEN (${distinctPg(USER_COLUMNS, 'OLD', 'NEW')}) EXECUTE FUNCTION inbox_member_changed()`,
  );
}
