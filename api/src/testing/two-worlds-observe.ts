/**
 * What the recipient R observes in a two-world run, and how two worlds' observations are made
 * comparable: ids, tokens and keys become first-seen labels (per world, in order of appearance),
 * the run's own users become role names, and times become placeholders whose offsets from the
 * world's start are compared with a tolerance instead.
 */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { settle, type Recorded } from '../realtime/testing.js';
import type { Reply } from './server.js';
import type { Giver, World } from './two-worlds.js';
import { alertEmail } from '../alerts/email-channel.js';
import { pushPayload } from '../push/channel.js';
import { AlertEntity } from '../alerts/entity.js';
import type { AlertPayload } from '../alerts/rules.js';

/** One answer R got: the call (as normalised text), its status, body and headers. */
export interface Answer {
  call: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** R's whole observation after one step. */
export interface Observation {
  step: string;
  /** Socket events R's socket received during the step (the action and any presence polls). */
  events: Recorded[];
  /** Presence of each named contact, polled while the anonymous giver's app was open. */
  duringStep: Answer[];
  /** Every answer R can fetch. */
  fetched: Answer[];
  /** R's own probing actions: messaging each suspect, profiles, wishlists, presence, blocks, reports. */
  probes: Answer[];
  /** Socket events that arrived while R fetched and probed. */
  probeEvents: Recorded[];
  /** The email and the push each of R's new alerts makes (each channel's rendering, whether or not R's open socket holds it back). */
  alertEmails: Answer[];
}

/** Headers left out of the comparison, each with why it carries nothing of its own. */
const VOLATILE_HEADERS = new Set([
  // the server's clock at the answer
  'date',
  // a hash of the body, which is compared itself (its ids differ between worlds by construction)
  'etag',
  // the body's length, which is compared itself (a uuid label and a uuid differ in length)
  'content-length',
  // transport, the same for every answer
  'connection',
  'keep-alive',
  // a random id per request, for the logs
  'x-request-id',
]);

/** Headers every answer carries (helmet's policy): compared as one digest so a diff shows what matters. */
const POLICY_HEADERS = new Set([
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;
const LONG_HEX = /\b[0-9a-f]{24,}\b/gi;
// random base64url keys (invite codes, reset tokens): long runs with letters and digits, or 40+ of mixed case (a 43-character key may hold no digit)
const KEY =
  /(?<![A-Za-z0-9_-])(?:(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}|(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{40,})(?![A-Za-z0-9_-])/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;
const EPOCH_MS_MIN = 1e12;
const EPOCH_MS_MAX = 1e13;

/** One world's labeller for one run: a value keeps its label, and labels go out in order of first appearance. */
export class Labels {
  private readonly labels = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  /** Every time met, as milliseconds since the world's start, in order of appearance. */
  times: number[] = [];

  constructor(
    private readonly startedAt: number,
    /** Exact strings of the run's own users (ids, usernames, emails) and the role label they read as. */
    private readonly known: [secret: string, label: string][],
  ) {}

  private label(kind: string, value: string): string {
    const key = `${kind}:${value.toLowerCase()}`;
    let label = this.labels.get(key);
    if (!label) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      label = `<${kind}${n}>`;
      this.labels.set(key, label);
    }
    return label;
  }

  private time(ms: number): string {
    this.times.push(ms - this.startedAt);
    return '<time>';
  }

  text(s: string): string {
    let out = s;
    for (const [secret, label] of this.known) out = out.replace(new RegExp(escapeRegExp(secret), 'gi'), label);
    out = out.replace(ISO_TIME, (t) => this.time(Date.parse(t)));
    out = out.replace(JWT, (t) => this.label('token', t));
    out = out.replace(UUID, (id) => this.label('id', id));
    out = out.replace(LONG_HEX, (h) => this.label('hex', h));
    out = out.replace(KEY, (k) => this.label('key', k));
    return out;
  }

  value(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (typeof v === 'number') return v >= EPOCH_MS_MIN && v < EPOCH_MS_MAX ? this.time(v) : v;
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.value(x);
      return out;
    }
    return v;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The labels of a world's run: its users' ids, usernames and emails read as their roles. */
export function labelsFor(world: World): Labels {
  const known: [string, string][] = [];
  for (const [role, p] of Object.entries(world.people)) {
    known.push([p.id, `${role}.id`], [p.email, `${role}.email`], [p.username, `${role}.username`]);
  }
  // longest first, so an email is replaced before the username inside it
  known.sort((a, b) => b[0].length - a[0].length);
  return new Labels(world.startedAt, known);
}

export function answerOf(call: string, reply: Reply): Answer {
  const headers: Record<string, string> = {};
  const policy: string[] = [];
  for (const [k, v] of reply.headers)
    if (POLICY_HEADERS.has(k)) policy.push(`${k}: ${v}`);
    else if (!VOLATILE_HEADERS.has(k)) headers[k] = v;
  if (policy.length)
    headers['(policy headers)'] = crypto.createHash('sha256').update(policy.sort().join('\n')).digest('base64').slice(0, 12);
  return { call, status: reply.status, body: reply.body, headers };
}

/** R's call, recorded as an answer. */
async function fetchAs(world: World, into: Answer[], method: string, path: string, body?: unknown): Promise<Reply> {
  const from = world.recipientSocket.events.length;
  const reply = await world.server.request(method, path, { token: world.people.R.token, body });
  into.push(answerOf(`${method} ${path}`, reply));
  const answer = reply.body as { markedAsRead?: number; _id?: string } | undefined;
  if (method === 'GET' && path.startsWith('/messages/') && (answer?.markedAsRead ?? 0) > 0) await eventAfter(world, from, 'unread-counts');
  if (method === 'POST' && path === '/messages/send' && reply.status === 201)
    await eventAfter(world, from, 'new-message', (p) => (p as { message?: { _id?: string } }).message?._id === answer?._id);
  return reply;
}

/**
 * The events R's socket got since the last call, each kind in its order of arrival: the balance
 * push is read after the commit apart from the messages, so how the two kinds interleave is timing
 * within one world, not who gave; the order within a kind is still compared (of balance pushes, the last).
 */
function drainEvents(world: World): Recorded[] {
  const events = world.recipientSocket.events.slice(world.eventsSeen);
  world.eventsSeen = world.recipientSocket.events.length;
  const kinds = [...new Set(events.map((e) => e.event))].sort();
  // Balance pushes close together are coalesced by timing: what R learns is the last one.
  return kinds.flatMap((kind) =>
    kind === 'balance' ? events.filter((e) => e.event === kind).slice(-1) : events.filter((e) => e.event === kind),
  );
}

/** How long R's socket must stay quiet before a step's events count as all in. */
const QUIET_MS = 40;

/** Waits until R's socket has received nothing for QUIET_MS (after-commit work and its events are done). */
async function quiet(world: World): Promise<void> {
  let seen = -1;
  while (seen !== world.recipientSocket.events.length) {
    seen = world.recipientSocket.events.length;
    await settle(QUIET_MS);
  }
}

/** Waits for the event R's own call causes: its counts are read when it is sent, so the next call must wait. */
async function eventAfter(world: World, from: number, name: string, match: (payload: unknown) => boolean = () => true): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!world.recipientSocket.events.slice(from).some((e) => e.event === name && match(e.payload))) {
    if (Date.now() > deadline) throw new Error(`${world.name}: R's socket got no ${name}`);
    await settle(5);
  }
}

/** Presence of both named contacts as R reads it now (R may poll it at any moment). */
export async function pollPresence(world: World): Promise<void> {
  for (const g of ['G', 'S'] as const) await presenceOf(world, g, world.duringStep);
}

/**
 * R reads a suspect's presence. Someone who turned on 'Show when I'm online' is shown online when
 * their app is open, anonymous use included: that is the choice they made, so it is not compared.
 */
async function presenceOf(world: World, g: Giver, into: Answer[]): Promise<void> {
  const call = `GET /api/onlineusers/${world.people[g].id}`;
  if (world.showsPresence.has(g)) into.push({ call, status: 0, body: `${g} chose to show presence`, headers: {} });
  else await fetchAs(world, into, 'GET', `/api/onlineusers/${world.people[g].id}`);
}

/** Everything R can fetch (the list `everythingVisibleTo` reads, and R's other own pages). */
async function fetchEverything(world: World, into: Answer[]): Promise<void> {
  const { id, username } = world.people.R;
  await fetchAs(world, into, 'GET', '/links/all?page=1');
  await fetchAs(world, into, 'POST', `/links/${username}`, {});
  await fetchAs(world, into, 'GET', `/links/profile/${username}`);
  await fetchAs(world, into, 'GET', `/links/active-links/${username}`);
  await fetchAs(world, into, 'GET', `/wishlists/${username}`);
  await fetchAs(world, into, 'GET', `/api/notifications/${id}`);
  const list = await fetchAs(world, into, 'GET', `/conversations/${id}`);
  for (const c of Array.isArray(list.body) ? (list.body as { _id: string }[]) : []) {
    await fetchAs(world, into, 'GET', `/conversations/find/${c._id}`);
    await fetchAs(world, into, 'GET', `/messages/${c._id}?page=1`);
  }
  await fetchAs(world, into, 'GET', `/messages/unread?userId=${id}`);
  await fetchAs(world, into, 'GET', '/api/auth/me');
  await fetchAs(world, into, 'GET', '/api/billing-settings-balance');
  await fetchAs(world, into, 'GET', '/api/wallet/history?limit=100');
  await fetchAs(world, into, 'GET', '/api/wallet/history.csv');
  await fetchAs(world, into, 'GET', '/api/orders');
  await fetchAs(world, into, 'GET', '/api/users/me/address');
  await fetchAs(world, into, 'GET', '/api/blocks');
  await fetchAs(world, into, 'GET', '/api/sessions');
  await fetchAs(world, into, 'GET', `/subscriptions/get-subscription-info/${id}`);
  await fetchAs(world, into, 'GET', `/invites/${id}`);
  await fetchAs(world, into, 'GET', '/api/account/export');
}

/** R's probes of the anonymous thread: a reply (answered alike whatever became of the giver) and a block round trip. */
async function probeAnonymous(world: World, step: number, into: Answer[]): Promise<void> {
  const thread = world.thread.anonymous;
  if (!thread) return;
  await fetchAs(world, into, 'POST', '/messages/send', { conversationId: thread, text: `R probes A at step ${step}` });
  if (world.blocks['R@anonymous'] === undefined) {
    const block = await fetchAs(world, into, 'POST', '/api/blocks', { conversationId: thread });
    const made = block.body as { block?: { _id?: string } } | undefined;
    if (block.status === 201 && made?.block?._id) await fetchAs(world, into, 'DELETE', `/api/blocks/${made.block._id}`);
  }
}

/** R's probes of one suspect: message them by name, open their profile, wishlist, links and presence, block round trip. */
async function probeSuspect(world: World, g: Giver, step: number, into: Answer[]): Promise<void> {
  const { id, username } = world.people[g];
  const thread = world.thread[g];
  await fetchAs(world, into, 'POST', '/messages/send', { conversationId: thread, text: `R probes ${g} at step ${step}` });
  await fetchAs(world, into, 'GET', `/api/users?userId=${id}`);
  await fetchAs(world, into, 'GET', `/api/users?username=${username}`);
  await fetchAs(world, into, 'GET', `/api/users/getId/${username}`);
  await fetchAs(world, into, 'GET', `/wishlists/${username}`);
  await fetchAs(world, into, 'GET', `/links/profile/${username}`);
  await fetchAs(world, into, 'GET', `/links/active-links/${username}`);
  await presenceOf(world, g, into);
  // A block and unblock of the named thread, unless R holds a block there (the probe leaves state as it found it).
  if (world.blocks[`R@${g}`] === undefined) {
    const block = await fetchAs(world, into, 'POST', '/api/blocks', { conversationId: thread });
    const made = block.body as { block?: { _id?: string } } | undefined;
    if (block.status === 201 && made?.block?._id) await fetchAs(world, into, 'DELETE', `/api/blocks/${made.block._id}`);
  }
}

/** R reports each thread it has (reports are limited per reporter, so this probe runs once, at the end). */
export async function probeReports(world: World, into: Answer[]): Promise<void> {
  for (const thread of [world.thread.G, world.thread.S, world.thread.anonymous])
    if (thread) await fetchAs(world, into, 'POST', '/api/reports', { conversationId: thread, reason: 'spam' });
}

/** R's whole observation after a step; `last` adds the probes that may run only once. */
export async function observe(world: World, step: number, label: string, last = false): Promise<Observation> {
  await quiet(world);
  const events = drainEvents(world);
  const duringStep = world.duringStep;
  world.duringStep = [];
  const fetched: Answer[] = [];
  await fetchEverything(world, fetched);
  const probes: Answer[] = [];
  for (const g of ['G', 'S'] as const) await probeSuspect(world, g, step, probes);
  await probeAnonymous(world, step, probes);
  if (last) await probeReports(world, probes);
  await quiet(world);
  return { step: label, events, duringStep, fetched, probes, probeEvents: drainEvents(world), alertEmails: await alertEmailsOf(world) };
}

/** R's alerts not yet observed, each as the email it makes (subject, parts, headers) and the push (push/channel.ts). */
async function alertEmailsOf(world: World): Promise<Answer[]> {
  const { deps } = world.server;
  const rows = await deps.db.manager.find(AlertEntity, { where: { userId: world.people.R.id }, order: { createdAt: 'ASC', kind: 'ASC' } });
  const fresh = rows.filter((row) => !world.alertsSeen.has(row.id));
  for (const row of fresh) world.alertsSeen.add(row.id);
  const { username, email } = world.people.R;
  return fresh.flatMap((row) => {
    const delivery = {
      to: { userId: row.userId, username, email },
      kind: row.kind,
      batchId: row.id,
      count: 1,
      conversationId: row.conversationId,
      payload: JSON.parse(row.payload) as AlertPayload,
    };
    return [
      { call: `alert email ${row.kind}`, status: 0, body: alertEmail(deps, delivery), headers: {} },
      { call: `alert push ${row.kind}`, status: 0, body: pushPayload(deps.config.publicUrl, delivery), headers: {} },
    ];
  });
}

/** How far apart (ms since each world's start) the same time may be in the two worlds. */
export const TIME_TOLERANCE_MS = 5_000;

/** The two worlds' normalised observations of a step are equal, and each time is as far from its world's start. */
export function expectSameObservation(
  [one, two]: [Observation, Observation],
  [labelsOne, labelsTwo]: [Labels, Labels],
  history: string[],
): void {
  labelsOne.times = [];
  labelsTwo.times = [];
  const a = labelsOne.value(one);
  const b = labelsTwo.value(two);
  const context = `R's observation differs between the worlds after:\n  ${history.join('\n  ')}\n`;
  expect(a, context).toEqual(b);
  const far = labelsOne.times.flatMap((t, i) => (Math.abs(t - labelsTwo.times[i]) > TIME_TOLERANCE_MS ? [[i, t, labelsTwo.times[i]]] : []));
  expect(far, `${context}times (ms since start) that differ by more than ${TIME_TOLERANCE_MS} ms`).toEqual([]);
}
