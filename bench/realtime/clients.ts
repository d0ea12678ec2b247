/** The load-generator child: every client connected at once, then the fixed-rate and saturation phases. */
import { io as connectSocket, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { send, type ClientSpec, type ClientsPhase, type ClientsResult, type PhaseResult } from './protocol.js';

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

/** The load generator: connects every client, then runs the fixed-rate and saturation phases. */
export async function clientsChild(): Promise<void> {
  const spec = await new Promise<ClientSpec>((resolve) => process.once('message', (m) => resolve(m as ClientSpec)));
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  let delivered = 0;

  const record = (text: string) => {
    const t = sentAt.get(text);
    if (t === undefined) return;
    sentAt.delete(text);
    latencies.push(performance.now() - t);
    delivered += 1;
  };

  const started = performance.now();
  const sockets: Socket[] = new Array(spec.clients.length);
  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const c = spec.clients[i];
      // engine.io-client hands localAddress on to ws in Node; its option types do not list it.
      const options: Partial<ManagerOptions & SocketOptions> & { localAddress?: string } = {
        transports: ['websocket'],
        auth: spec.kind === 'giftlink' ? { token: c.credential } : { room: c.credential },
        reconnection: false,
        forceNew: true,
        localAddress: c.localAddress,
        timeout: 60_000,
      };
      const socket = connectSocket(spec.urls[c.url], options);
      sockets[i] = socket;
      const ready = spec.kind === 'giftlink' ? 'init' : 'connect';
      socket.once(ready, () => resolve());
      socket.once('connect_error', reject);
      if (i % 2 === 1) {
        if (spec.kind === 'giftlink')
          socket.on('new-message', (e: { message: { text: string; mine: boolean } }) => {
            if (!e.message.mine) record(e.message.text);
          });
        else socket.on('msg', (e: { text: string }) => record(e.text));
      }
    });
  for (let i = 0; i < spec.clients.length; i += 200) {
    await Promise.all(Array.from({ length: Math.min(200, spec.clients.length - i) }, (_, k) => connectOne(i + k)));
  }
  const connectSeconds = (performance.now() - started) / 1000;

  const pairs = spec.targets.length;
  let next = 0;
  let counter = 0;
  let errors = 0;
  const sendOne = (phase: string): Promise<void> => {
    const pair = next++ % pairs;
    const text = `${phase}:${counter++}`;
    const socket = sockets[2 * pair];
    sentAt.set(text, performance.now());
    return new Promise<void>((resolve) => {
      const ack = (answer: { ok: boolean } | boolean) => {
        if (answer !== true && !(typeof answer === 'object' && answer.ok)) {
          errors += 1;
          sentAt.delete(text);
        }
        resolve();
      };
      if (spec.kind === 'giftlink') socket.emit('sendMessage', { conversationId: spec.targets[pair], text }, ack);
      else socket.emit('msg', { to: spec.targets[pair], text }, ack);
    });
  };

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const drain = async () => {
    for (let i = 0; i < 50 && sentAt.size > 0; i += 1) await sleep(100);
  };
  const summarize = (sent: number, seconds: number): PhaseResult => {
    const sorted = latencies.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      sent,
      delivered,
      lost: sentAt.size,
      errors,
      seconds: round(seconds),
      messagesPerSecond: Math.round(delivered / seconds),
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
    };
  };
  const reset = () => {
    latencies = [];
    delivered = 0;
    errors = 0;
    sentAt.clear();
  };

  /** Open loop at `rate`/s for `seconds` (a tick every 10 ms). */
  const fixedRate = async (phase: string, seconds: number): Promise<number> => {
    const end = performance.now() + seconds * 1000;
    const begin = performance.now();
    let sent = 0;
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - begin) / 1000) * spec.rate);
      for (; sent < due; sent += 1) void sendOne(phase);
      await sleep(10);
    }
    return sent;
  };

  // warm-up, then the measured fixed-rate phase
  await fixedRate('warm', 1);
  await drain();
  reset();
  const fixedSent = await fixedRate('fixed', spec.seconds);
  const fixedWindow = spec.seconds;
  await drain();
  const fixed = summarize(fixedSent, fixedWindow);

  reset();
  send({ type: 'phase', phase: 'saturating' } satisfies ClientsPhase);
  const satBegin = performance.now();
  const satEnd = satBegin + spec.seconds * 1000;
  let satSent = 0;
  await Promise.all(
    Array.from({ length: spec.window }, async () => {
      while (performance.now() < satEnd) {
        satSent += 1;
        await sendOne('sat');
      }
    }),
  );
  const satSeconds = (performance.now() - satBegin) / 1000;
  send({ type: 'phase', phase: 'saturated' } satisfies ClientsPhase);
  await drain();
  const saturation = summarize(satSent, satSeconds);

  for (const s of sockets) s.disconnect();
  send({ type: 'result', connectSeconds: Math.round(connectSeconds * 10) / 10, fixed, saturation } satisfies ClientsResult);
  setTimeout(() => process.exit(0), 100);
}
