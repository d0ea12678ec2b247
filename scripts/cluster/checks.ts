/** What the chaos run checks in the database and the nodes' logs once the load has stopped. */
import fs from 'node:fs';
import pg from 'pg';
import { loadConfig } from '../../api/src/config.js';
import { openDatabase } from '../../api/src/db/index.js';
import { ledgerInvariants } from '../../api/src/money/ledger.js';
import { schema } from '../../api/src/schema.js';
import type { ChatClient, ChatSent, ChatUser } from './chat-load.js';

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every user's conversations and newest message: where the chat clients start. */
export async function chatUsers(url: string, accounts: { id: string; token: string }[]): Promise<{ users: ChatUser[]; baseline: number }> {
  const [{ max }] = await query<{ max: string | null }>(url, 'SELECT max(seq) AS max FROM messages');
  const conversations = await query<{ id: string; initiator_id: string; responder_id: string }>(
    url,
    'SELECT id, initiator_id, responder_id FROM conversations ORDER BY id',
  );
  const newest = await query<{ user_id: string; id: string; seq: string }>(
    url,
    `SELECT DISTINCT ON (u.user_id) u.user_id, m.id, m.seq
     FROM (SELECT id AS cid, initiator_id AS user_id FROM conversations UNION ALL SELECT id, responder_id FROM conversations) u
     JOIN messages m ON m.conversation_id = u.cid ORDER BY u.user_id, m.seq DESC`,
  );
  const users = accounts.map((a) => {
    const last = newest.find((n) => n.user_id === a.id);
    if (!last) throw new Error(`user ${a.id} has no message yet`);
    return {
      ...a,
      conversations: conversations.filter((c) => c.initiator_id === a.id || c.responder_id === a.id).map((c) => c.id),
      newest: { id: last.id, seq: Number(last.seq) },
    };
  });
  return { users, baseline: Number(max ?? 0) };
}

export interface MessageFindings {
  /** Acknowledged messages the database does not hold. */
  lostAcknowledged: number;
  /** Sent messages stored more than once. */
  duplicated: number;
  /** Messages written with a seq another message has, or without one. */
  duplicateSeqs: number;
  nullSeqs: number;
  /** Per client: messages of its user's conversations it never got, and ones it got twice under one seq. */
  missingDeliveries: number;
  clientsMissing: number;
  clientSeqClashes: number;
  redelivered: number;
  unknownStored: number;
  /** When each chat message some client is missing was sent (ms since the epoch); gifts' notes are not timed. */
  missingSentAt: number[];
  /** A few missing deliveries in detail: the message, and that client's connects around it. */
  missingDetails: string[];
}

export async function checkMessages(url: string, clients: ChatClient[], sent: ChatSent[], baseline: number): Promise<MessageFindings> {
  const rows = await query<{
    id: string;
    seq: string | null;
    text: string;
    message_type: string;
    initiator_id: string;
    responder_id: string;
  }>(
    url,
    `SELECT m.id, m.seq, m.text, m.message_type, c.initiator_id, c.responder_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE m.seq IS NULL OR m.seq > $1`,
    [baseline],
  );
  const [{ clashes }] = await query<{ clashes: string }>(
    url,
    'SELECT count(*) AS clashes FROM (SELECT seq FROM messages WHERE seq IS NOT NULL GROUP BY seq HAVING count(*) > 1) d',
  );
  const ids = new Set(rows.map((r) => r.id));
  const byText = new Map<string, number>();
  for (const r of rows) byText.set(r.text, (byText.get(r.text) ?? 0) + 1);
  const acked = sent.filter((s) => s.outcome === 'ok');
  let missingDeliveries = 0;
  let clientsMissing = 0;
  let clientSeqClashes = 0;
  const missingSentAt = new Set<number>();
  const sentAt = new Map(sent.map((x) => [x.text, x.at]));
  const missingDetails: string[] = [];
  for (const client of clients) {
    const mine = rows.filter((r) => r.initiator_id === client.user.id || r.responder_id === client.user.id);
    const missing = mine.filter((r) => !client.held.has(r.id));
    missingDeliveries += missing.length;
    if (missing.length) clientsMissing += 1;
    for (const r of missing) {
      const at = sentAt.get(r.text) ?? 0;
      if (at) missingSentAt.add(at);
      if (missingDetails.length < 6) {
        const near = client.connectLog.map(
          (c) => `${at ? `${c.at - at} ms after it` : 'at'} ${new Date(c.at).toISOString().slice(14, 23)} from seq ${c.after}`,
        );
        const held = [...client.held.values()].filter((q) => Math.abs(q - Number(r.seq)) < 40).sort((a, b) => a - b);
        const role = r.initiator_id === client.user.id ? 'initiator' : 'responder';
        missingDetails.push(
          `client ${clients.indexOf(client)} (${role}) lacks seq ${r.seq} ${r.message_type} "${r.text.slice(0, 40)}" (holds ${held.join(',')}); connects ${near.join(', ')}`,
        );
      }
    }
    const seqs = new Set<number>();
    for (const [id, seq] of client.held) {
      if (!ids.has(id) && seq > baseline) clientSeqClashes += 1; // held, but no such message
      if (seqs.has(seq)) clientSeqClashes += 1;
      seqs.add(seq);
    }
  }
  return {
    lostAcknowledged: acked.filter((s) => !s.id || !ids.has(s.id)).length,
    duplicated: sent.filter((s) => (byText.get(s.text) ?? 0) > 1).length,
    duplicateSeqs: Number(clashes),
    nullSeqs: rows.filter((r) => r.seq === null).length,
    missingDeliveries,
    clientsMissing,
    clientSeqClashes,
    redelivered: clients.reduce((n, c) => n + c.redelivered, 0),
    unknownStored: sent.filter((s) => s.outcome !== 'ok' && byText.has(s.text)).length,
    missingSentAt: [...missingSentAt].sort((a, b) => a - b),
    missingDetails,
  };
}

/** The ledger's invariants (money/ledger.ts), read on the run's database; undefined when they hold. */
export async function ledgerProblems(url: string): Promise<string | undefined> {
  const db = await openDatabase(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'warn' }), schema);
  try {
    const l = await ledgerInvariants(db);
    const held =
      l.sumOfAllEntries === 0 &&
      !l.mismatchedBalances.length &&
      !l.negativeUserBalances.length &&
      !l.negativeEscrowBalances.length &&
      !l.unbalancedTransfers.length;
    return held ? undefined : JSON.stringify(l).slice(0, 600);
  } finally {
    await db.close();
  }
}

/** Job periods run, from the nodes' logs (jobs/scheduler.ts logs each), and those run more than once. */
export function jobPeriods(logFiles: string[]): { ran: number; twice: string[] } {
  const seen = new Map<string, number>();
  for (const file of logFiles) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"job period ran"')) continue;
      try {
        const { job, period } = JSON.parse(line) as { job: string; period: string };
        seen.set(`${job}@${period}`, (seen.get(`${job}@${period}`) ?? 0) + 1);
      } catch {
        // a line cut by kill -9
      }
    }
  }
  return { ran: seen.size, twice: [...seen].filter(([, n]) => n > 1).map(([k]) => k) };
}
