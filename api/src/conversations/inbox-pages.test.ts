import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_CURSOR_HEADER } from '../../contract/limits.js';
import { buildConversation } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { ConversationView } from './presenter.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const send = async (who: TestUser, conversationId: string, text: string) => {
  const res = await server.request('POST', '/messages/send', { token: who.token, body: { conversationId, text } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

const page = async (who: TestUser, query = '') => {
  const res = await server.request<ConversationView[]>('GET', `/conversations/${who.user._id}${query}`, { token: who.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: res.body.map((c) => c._id), cursor: res.headers.get(INBOX_CURSOR_HEADER), body: res.body };
};

/** Every page after `cursor`, `limit` at a time, until a page comes without a cursor. */
async function rest(who: TestUser, cursor: string | null, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  for (let next = cursor; next;) {
    const p = await page(who, `?limit=${limit}&cursor=${next}`);
    pages.push(p.ids);
    next = p.cursor;
    expect(pages.length).toBeLessThan(50);
  }
  return pages;
}

/** `owner` with `count` conversations, each with one message from the other member; the newest first. */
async function inboxOf(count: number, prefix: string): Promise<{ owner: TestUser; others: TestUser[]; ids: string[] }> {
  const [owner, ...others] = await buildUsers(server, count + 1, prefix);
  const ids: string[] = [];
  for (const [i, other] of others.entries()) {
    // Every third giver anonymous: paging must not sort the two kinds apart.
    const c = await buildConversation(server, other, owner, i % 3 === 0);
    await send(other, c.id, `hello ${i}`);
    ids.unshift(c.id);
  }
  return { owner, others, ids };
}

describe('GET /conversations/{userId}, a page at a time', () => {
  it('answers 25 by default and every conversation exactly once across the pages, in the inbox order', async () => {
    const { owner, ids } = await inboxOf(60, 'pgs');
    const first = await page(owner);
    expect(first.ids).toEqual(ids.slice(0, 25));
    expect(first.cursor).toMatch(/^[\w-]+$/);
    const later = await rest(owner, first.cursor, 25);
    expect(later.map((p) => p.length)).toEqual([25, 10]);
    expect([...first.ids, ...later.flat()]).toEqual(ids);
    // The whole inbox in one page, for comparison: the same order.
    expect((await page(owner, '?limit=100')).ids).toEqual(ids);
  }, 60_000);

  it('a full last page answers a cursor whose page is empty', async () => {
    const { owner, ids } = await inboxOf(10, 'pgf');
    const first = await page(owner, '?limit=5');
    const later = await rest(owner, first.cursor, 5);
    expect(later).toEqual([ids.slice(5), []]);
  }, 60_000);

  it('returns each conversation once when new messages move conversations to the top between pages', async () => {
    const { owner, others, ids } = await inboxOf(30, 'pgm');
    const first = await page(owner, '?limit=10');
    expect(first.ids).toEqual(ids.slice(0, 10));
    // A conversation further down, one on the first page and one of the next page's gain new messages.
    const down = ids[22];
    const top = ids[3];
    const next = ids[11];
    const owners = (id: string) => others[others.length - 1 - ids.indexOf(id)];
    await send(owners(down), down, 'I moved up from the third page');
    await send(owner, top, 'a reply on the first page');
    await send(owners(next), next, 'and from the second');
    // A conversation new since the first page comes live, not in the later pages.
    const [newcomer] = await buildUsers(server, 1, 'pgn');
    const fresh = await buildConversation(server, newcomer, owner, true);
    await send(newcomer, fresh.id, 'new here');

    const later = await rest(owner, first.cursor, 10);
    const all = [...first.ids, ...later.flat()];
    expect(all).toHaveLength(30);
    expect(new Set(all)).toEqual(new Set(ids));
    // The moved ones keep the place the first page gave them, with their new last message.
    expect(all).toEqual(ids);
    const moved = later.flat().indexOf(down);
    expect(moved).toBeGreaterThan(-1);
    // A fresh first page has them on top.
    expect((await page(owner, '?limit=4')).ids).toEqual([fresh.id, next, top, down]);
  }, 60_000);

  it('answers 400 for a bad limit or cursor, and changes nothing', async () => {
    const { owner } = await inboxOf(3, 'pgb');
    const path = `/conversations/${owner.user._id}`;
    const bad = async (query: string) => {
      const res = await server.request<{ error: string; message: string }>('GET', path + query, { token: owner.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('validation_failed');
      return res.body.message;
    };
    for (const limit of ['0', '101', '-1', '2.5', 'ten', ''])
      expect(await bad(`?limit=${limit}`)).toBe('limit: must be a whole number from 1 to 100');
    for (const cursor of ['!!', 'a'.repeat(201), Buffer.from('1.2').toString('base64url'), Buffer.from('x.1.abc').toString('base64url')])
      expect(await bad(`?cursor=${encodeURIComponent(cursor)}`)).toBe('cursor: must be a cursor this inbox answered');
    expect((await page(owner, '?limit=100')).ids).toHaveLength(3);
    // Identity comes from the token: another user's inbox is still refused, cursor or not.
    const [stranger] = await buildUsers(server, 1, 'pgx');
    const first = await page(owner, '?limit=1');
    const res = await server.request('GET', `${path}?cursor=${first.cursor}`, { token: stranger.token });
    expect(res.status).toBe(403);
  }, 60_000);
});
