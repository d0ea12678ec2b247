/**
 * One check for every gift path: nothing a recipient can call, receive or compare ties the
 * anonymous thread of a giver to the named thread of the same person. The anonymity tests of
 * links, wishlists and conversations gather what the recipient saw with `recipientView` and hand
 * it to `expectThreadsUnlinked`.
 */
import { expect } from 'vitest';
import type { ConversationView, MessageView } from '../conversations/presenter.js';
import type { NotificationView } from '../notifications/presenter.js';
import type { TestClient } from '../realtime/testing.js';
import type { TestServer, TestUser } from './server.js';

export interface ThreadView {
  conversation: ConversationView;
  messages: MessageView[];
  /** Everything about this thread as the recipient got it, as text: HTTP bodies and socket events. */
  seen: string[];
}

export interface RecipientView {
  anonymous: ThreadView[];
  named: ThreadView[];
  /** Seen but tied to no thread (unread counts, /me…): must not name the giver either. */
  other: string[];
}

const json = (v: unknown) => JSON.stringify(v);

/** Socket events whose payload belongs to a conversation, keyed by its id. */
function conversationOf(event: { event: string; payload: unknown }): string | null {
  const p = event.payload as Partial<NotificationView & { conversationId: string; messages: MessageView[] }> | null;
  if (!p || typeof p !== 'object') return null;
  if (typeof p.conversationId === 'string') return p.conversationId;
  return null;
}

/**
 * Everything `recipient` can see, split by thread: their conversations (list, find, messages),
 * their notifications, the HTTP answers they got (`answers`, e.g. from accepting a link) and the
 * events their socket received (`socket`).
 */
export async function recipientView(
  server: TestServer,
  recipient: TestUser,
  options: { socket?: TestClient; answers?: unknown[] } = {},
): Promise<RecipientView> {
  const as = { token: recipient.token };
  const id = recipient.user._id;
  const list = (await server.request<ConversationView[]>('GET', `/conversations/${id}`, as)).body;
  const threads = new Map<string, ThreadView>();
  for (const listed of list) {
    const found = (await server.request<ConversationView>('GET', `/conversations/find/${listed._id}`, as)).body;
    const page = (await server.request<{ messages: MessageView[] }>('GET', `/messages/${listed._id}?page=1`, as)).body;
    threads.set(listed._id, { conversation: found, messages: page.messages, seen: [json(listed), json(found), json(page)] });
  }
  const other: string[] = [];
  const place = (conversationId: string | null, text: string) => {
    const thread = conversationId ? threads.get(conversationId) : undefined;
    if (thread) thread.seen.push(text);
    else other.push(text);
  };
  const notifications = (await server.request<NotificationView[]>('GET', `/api/notifications/${id}`, as)).body;
  for (const n of notifications) place(n.conversationId, json(n));
  for (const answer of options.answers ?? []) place(conversationOf({ event: 'answer', payload: answer }), json(answer));
  for (const event of options.socket?.events ?? []) {
    const missed = event.payload as { messages?: MessageView[] } | null;
    if (event.event === 'missed-messages' && missed?.messages)
      for (const m of missed.messages) place(m.conversationId, json({ event: event.event, message: m }));
    else place(conversationOf(event), json(event));
  }
  other.push(json((await server.request('GET', `/messages/unread?userId=${id}`, as)).body));
  other.push(json((await server.request('GET', '/api/auth/me', as)).body));
  const all = [...threads.values()];
  return {
    anonymous: all.filter((t) => t.conversation.otherUser.anonymous),
    named: all.filter((t) => !t.conversation.otherUser.anonymous),
    other,
  };
}

/** Every id a thread hands out: the conversation's, its messages', and its notifications'. */
function idsOf(thread: ThreadView): string[] {
  const ids = new Set<string>([thread.conversation._id, ...thread.messages.map((m) => m._id)]);
  for (const text of thread.seen) {
    const parsed = JSON.parse(text) as { _id?: unknown; payload?: { _id?: unknown } };
    for (const candidate of [parsed._id, parsed.payload?._id]) if (typeof candidate === 'string') ids.add(candidate);
  }
  return [...ids];
}

/**
 * The recipient's anonymous thread from `giver` and their named thread with `giver` share no id and
 * nothing else comparable, and the anonymous side never names the giver. Each named thread must
 * show the giver (so a test cannot pass by hiding everyone).
 */
export function expectThreadsUnlinked(view: RecipientView, giver: TestUser): void {
  const secrets = [giver.user._id, giver.user.username, giver.user.email, giver.user.displayName]
    .filter(Boolean)
    .map((s) => s.toLowerCase());
  for (const thread of view.anonymous) {
    const text = thread.seen.join('\n').toLowerCase();
    for (const secret of secrets) expect(text, `anonymous thread ${thread.conversation._id} names the giver`).not.toContain(secret);
    expect(thread.conversation.otherUser).toMatchObject({ _id: null, anonymous: true });
    for (const m of thread.messages) if (!m.mine) expect(m.senderUserId).toBe('anonymous');
  }
  for (const text of view.other) for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret);
  for (const thread of view.named) expect(thread.conversation.otherUser._id).toBe(giver.user._id);

  for (const anon of view.anonymous)
    for (const named of view.named) {
      expect(anon.conversation._id).not.toBe(named.conversation._id);
      const anonText = anon.seen.join('\n');
      const namedText = named.seen.join('\n');
      for (const id of idsOf(named)) expect(anonText, `anonymous thread mentions ${id} of the named thread`).not.toContain(id);
      for (const id of idsOf(anon)) expect(namedText, `named thread mentions ${id} of the anonymous thread`).not.toContain(id);
      // No message is in both, and neither thread's messages point at the other conversation.
      for (const m of anon.messages) expect(m.conversationId).toBe(anon.conversation._id);
      for (const m of named.messages) expect(m.conversationId).toBe(named.conversation._id);
    }
}
