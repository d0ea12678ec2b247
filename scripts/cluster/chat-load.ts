/**
 * The chat side of the chaos run: socket.io clients that behave as the renderer's
 * (renderer/src/state/realtime/connection.ts): they reconnect by themselves, catch up with
 * `last_message_id` from the newest message they hold after every reconnect and, while connected,
 * resync from what was newest at the last resync (every RESYNC_MS here, a minute in the renderer), keep each message
 * once by its id, and send with an acknowledgement (over HTTP while disconnected). Each socket
 * comes from its own loopback address, as separate clients would, so nginx spreads them.
 */
import crypto from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { call, errorCode } from './http.js';
import { sleep } from './processes.js';

/** The renderer's resync period is a minute; the run's is shorter, so that it ends soon after the load. */
export const RESYNC_MS = 5_000;

interface MessageView {
  _id: string;
  seq: number;
  text: string;
  conversationId?: string;
}

export interface ChatUser {
  id: string;
  token: string;
  /** The conversations it sends in, and the newest message it holds (where its first catch-up starts). */
  conversations: string[];
  newest: { id: string; seq: number };
}

export class ChatClient {
  readonly socket: Socket;
  /** Message id → seq, each kept once (as the renderer's seenMessages). */
  readonly held = new Map<string, number>();
  /** Deliveries of a message already held (live and again in a catch-up): the client drops them. */
  redelivered = 0;
  connects = 0;
  catchUpRefusals = 0;
  /** Each connect: when, and the seq its catch-up started after. */
  readonly connectLog: { at: number; after: number }[] = [];
  /** Why handshakes were refused, by message. */
  readonly refusals = new Map<string, number>();
  private newest: { id: string; seq: number };
  /** As the renderer's resync (connection.ts): what was newest at the last one, where the next starts. */
  private resyncFrom: { id: string; seq: number };
  private readonly resyncTimer: NodeJS.Timeout;

  constructor(
    base: string,
    readonly user: ChatUser,
    localAddress: string,
  ) {
    this.newest = user.newest;
    this.resyncFrom = user.newest;
    this.socket = io(base, {
      transports: ['websocket'],
      auth: { token: user.token },
      reconnectionDelay: 200,
      reconnectionDelayMax: 2_000,
      forceNew: true,
      localAddress,
      autoConnect: false,
    } as Parameters<typeof io>[1]);
    const s = this.socket;
    s.on('connect', () => {
      this.connects += 1;
      this.connectLog.push({ at: Date.now(), after: this.newest.seq });
      this.catchUp(this.newest.id);
    });
    // A message whose live event was lost while this socket stayed up comes at the next resync.
    this.resyncTimer = setInterval(() => {
      if (!s.connected) return;
      const from = this.resyncFrom;
      this.resyncFrom = this.newest;
      this.catchUp(from.id);
    }, RESYNC_MS);
    s.on('connect_error', (err: Error & { data?: { error?: string } }) => {
      const why = err.data?.error ?? err.message;
      this.refusals.set(why, (this.refusals.get(why) ?? 0) + 1);
      // A refused handshake is not retried by socket.io; the renderer tries again, so do we.
      if (!s.active) setTimeout(() => s.connect(), 1_000);
    });
    s.on('new-message', (e: { message: MessageView }) => this.receive(e.message));
    s.on('missed-messages', (e: { messages: MessageView[]; hasMore: boolean }) => {
      for (const m of e.messages) this.receive(m);
      const last = e.messages.at(-1);
      if (e.hasMore && last) this.catchUp(last._id);
    });
    s.connect();
  }

  private catchUp(lastMessageId: string): void {
    this.socket.emit('last_message_id', { lastMessageId }, (ack: { ok: boolean }) => {
      if (ack.ok) return;
      // The renderer re-reads its open thread over HTTP after a refused catch-up; this asks again.
      this.catchUpRefusals += 1;
      // From the same point: newer messages held since would make it skip what it was asked for.
      setTimeout(() => this.socket.connected && this.catchUp(lastMessageId), 1_000);
    });
  }

  private receive(m: MessageView): void {
    if (m.seq > this.newest.seq) this.newest = { id: m._id, seq: m.seq };
    if (this.held.has(m._id)) this.redelivered += 1;
    else this.held.set(m._id, m.seq);
  }

  close(): void {
    clearInterval(this.resyncTimer);
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }
}

export interface ChatSent {
  text: string;
  /** When it was sent (ms since the epoch). */
  at: number;
  /** ok: acknowledged with this id; refused: the server said no; unknown: no answer in time. */
  outcome: 'ok' | 'refused' | 'unknown';
  id?: string;
  error?: string;
}

/** `socketsPerUser` clients for every user; the first of each sends a message every `everyMs`. */
export class ChatLoad {
  readonly clients: ChatClient[] = [];
  readonly sent: ChatSent[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly base: string,
    users: ChatUser[],
    socketsPerUser: number,
  ) {
    let n = 0;
    for (const user of users)
      for (let k = 0; k < socketsPerUser; k++, n++) this.clients.push(new ChatClient(base, user, `127.0.${1 + (n >> 8)}.${2 + (n & 255)}`));
  }

  connected(): number {
    return this.clients.filter((c) => c.socket.connected).length;
  }

  /** Why handshakes were refused, over all clients. */
  refusals(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.clients) for (const [why, n] of c.refusals) out[why] = (out[why] ?? 0) + n;
    return out;
  }

  start(everyMs: number): void {
    this.running = true;
    const senders = this.clients.filter((c, i) => i === 0 || this.clients[i - 1].user !== c.user);
    this.loops = senders.map(async (client, i) => {
      await sleep((everyMs * i) / senders.length);
      let n = 0;
      while (this.running) {
        const conversationId = client.user.conversations[n++ % client.user.conversations.length];
        const record: ChatSent = {
          text: `chaos ${client.user.id.slice(0, 8)} ${n} ${crypto.randomUUID()}`,
          at: Date.now(),
          outcome: 'unknown',
        };
        this.sent.push(record);
        await this.sendOne(client, conversationId, record);
        await sleep(everyMs);
      }
    });
  }

  private async sendOne(client: ChatClient, conversationId: string, record: ChatSent): Promise<void> {
    const clientId = crypto.randomUUID();
    if (client.socket.connected) {
      try {
        const ack = (await client.socket.timeout(5_000).emitWithAck('sendMessage', { conversationId, text: record.text, clientId })) as {
          ok: boolean;
          message?: MessageView;
          error?: { error: string };
        };
        record.outcome = ack.ok ? 'ok' : 'refused';
        record.id = ack.message?._id;
        record.error = ack.error?.error;
      } catch {
        record.outcome = 'unknown';
      }
      return;
    }
    const answer = await call<{ _id: string }>(
      this.base,
      'POST',
      '/messages/send',
      client.user.token,
      { conversationId, text: record.text, clientId },
      undefined,
      5_000,
    );
    if (answer.status === 201) {
      record.outcome = 'ok';
      record.id = answer.body._id;
    } else if (answer.status >= 400 && answer.status < 500) {
      record.outcome = 'refused';
      record.error = errorCode(answer);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}
