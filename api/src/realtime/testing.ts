/** Test helpers for the real-time layer: socket.io clients that record every event, and factories. */
import crypto from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { ConversationEntity, type Conversation } from '../conversations/entity.js';
import { conversationKey } from '../conversations/gift-message.js';
import type { RunningServer } from '../server.js';
import { depositFor, type TestServer, type TestUser } from '../testing/server.js';
import type { ClientToServerEvents, ServerToClientEvents } from './events.js';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventName = keyof ServerToClientEvents;
type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

export interface Recorded {
  event: string;
  payload: unknown;
  /** The event's arguments after the first (getNotification's alert kind). */
  rest: unknown[];
}

export interface ConnectOptions {
  /** Sent as `auth.token` (the renderer's way). */
  token?: string;
  headers?: Record<string, string>;
  transports?: ('websocket' | 'polling')[];
  /** Wait for `init` (the server's "you are connected and counted online"); default true. */
  waitForInit?: boolean;
}

/** A socket.io client that keeps every event it receives, in order. */
export class TestClient {
  readonly events: Recorded[] = [];

  constructor(readonly socket: ClientSocket) {
    socket.onAny((event: string, payload: unknown, ...rest: unknown[]) => this.events.push({ event, payload, rest }));
  }

  received<E extends EventName>(event: E): PayloadOf<E>[] {
    return this.events.filter((e) => e.event === event).map((e) => e.payload as PayloadOf<E>);
  }

  /** The first event of that name matching `match`, already received or still to come. */
  waitFor<E extends EventName>(event: E, match: (payload: PayloadOf<E>) => boolean = () => true, timeoutMs = 5000): Promise<PayloadOf<E>> {
    const seen = this.received(event).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const listener = (name: string, payload: unknown) => {
        if (name !== event || !match(payload as PayloadOf<E>)) return;
        clearTimeout(timer);
        this.socket.offAny(listener);
        resolve(payload as PayloadOf<E>);
      };
      const timer = setTimeout(() => {
        this.socket.offAny(listener);
        reject(new Error(`timed out waiting for ${event}`));
      }, timeoutMs);
      this.socket.onAny(listener);
    });
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** Connects to the server's socket.io; rejects with the `connect_error` when the handshake is refused. */
export async function connectClient(server: Pick<RunningServer, 'url'>, options: ConnectOptions = {}): Promise<TestClient> {
  const socket: ClientSocket = io(server.url, {
    transports: options.transports ?? ['websocket'],
    auth: options.token ? { token: options.token } : {},
    extraHeaders: options.headers,
    reconnection: false,
    forceNew: true,
    timeout: 5000,
  });
  const client = new TestClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
  if (options.waitForInit ?? true) await client.waitFor('init');
  return client;
}

/** A conversation straight in the database (the gift flows make them for real; see the links tests). */
export async function buildConversation(
  server: RunningServer,
  initiator: TestUser,
  responder: TestUser,
  initiatorAnonymous = true,
): Promise<Conversation> {
  const now = new Date();
  const conversation: Conversation = {
    id: crypto.randomUUID(),
    initiatorId: initiator.user._id,
    responderId: responder.user._id,
    initiatorAnonymous,
    pairKey: '',
    lastMessageId: null,
    lastMessageAt: now,
    createdAt: now,
  };
  await server.deps.db.transaction(async (em) => {
    conversation.pairKey = await conversationKey(em, initiatorAnonymous ? 'anonymous' : 'named', initiator.user._id, responder.user._id);
    await em.insert(ConversationEntity, { ...conversation });
  });
  return conversation;
}

/** Resolves after `ms`: for asserting that something did NOT arrive. */
export const settle = (ms = 200) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A real gift through the API: `recipient` opens a receive link and `giver` gives to it. Makes
 * the gift conversation (giver anonymous), its gift message and the recipient's notification.
 */
export async function giveGift(server: TestServer, giver: TestUser, recipient: TestUser, dollars = 5): Promise<{ conversationId: string }> {
  await depositFor(server, giver, dollars);
  const link = await server.request<{ id: string }>('POST', '/links/create', {
    token: recipient.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: dollars } },
  });
  if (link.status !== 201) throw new Error(`link create failed: ${link.status} ${JSON.stringify(link.body)}`);
  const give = await server.request<{ conversationId: string }>('POST', '/statuses/api/gives', {
    token: giver.token,
    body: { postId: link.body.id, amount: dollars },
  });
  if (give.status !== 201) throw new Error(`give failed: ${give.status} ${JSON.stringify(give.body)}`);
  return { conversationId: give.body.conversationId };
}
