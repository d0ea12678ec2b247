/**
 * One measured run of a scenario against one target (a node directly, or nginx in front of N), with
 * the CPU time of each process group over the measured part (groups.ts): gives and feed pages by
 * autocannon (bench/load.ts), chat by bench:realtime's socket.io client (bench/realtime/clients.ts).
 */
import type { ChildProcess } from 'node:child_process';
import type { LoadResult, LoadSpec } from '../load.js';
import { forkLoad } from '../fork-load.js';
import { child, nextMessage } from '../realtime/processes.js';
import type { ClientsPhase, ClientsResult, ClientSpec } from '../realtime/protocol.js';
import type { ChatPairs } from '../seed.js';
import { GROUPS, snapshot, spent, type Members, type Snapshot, type Spent } from './groups.js';

export type ScenarioName = 'gives' | 'feed' | 'chat';

export interface Target {
  /** `direct` (one node, no nginx) or `nginx`. */
  via: 'direct' | 'nginx';
  nodes: number;
  url: string;
  members: Omit<Members, 'loadPid'>;
  /** µs a second each group spends with nothing to serve: taken off, so the figures are a request's own. */
  idle?: Partial<Spent>;
}

export interface Measured {
  scenario: ScenarioName;
  via: Target['via'];
  nodes: number;
  /** Requests (chat: messages delivered) a second over the measured part. */
  perSecond: number;
  /** Requests (chat: messages sent) in the measured part: the CPU times' denominator. */
  count: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and non-2xx answers (chat: failed acks and lost messages). */
  failures: number;
  /**
   * µs of CPU time per request, by process group (`machine`: the whole machine's busy time), less
   * what the group spends idle (Target.idle) over as long.
   */
  cpuUs: Spent;
  /** The same, idle time included. */
  rawCpuUs: Spent;
  /** CPUs busy on average over the measured part, the whole machine. */
  busyCpus: number;
  /** HTTP runs: what autocannon reported. Chat: the fixed-rate phase before saturation. */
  load?: LoadResult;
  chatFixed?: { rate: number; p50: number; p99: number; lost: number };
  /** What a check after the run found wrong (gives: recorded against answered; ledger). */
  problem?: string;
}

function perRequest(target: Target, start: Snapshot, end: Snapshot, count: number): { cpuUs: Spent; rawCpuUs: Spent; busyCpus: number } {
  const total = spent(start, end);
  const seconds = (end.at - start.at) / 1000;
  const per = (us: number) => (count ? us / count : 0);
  const rawCpuUs = Object.fromEntries(Object.entries(total).map(([g, us]) => [g, per(us)])) as Spent;
  const cpuUs = Object.fromEntries(
    Object.entries(total).map(([g, us]) => [g, per(Math.max(0, us - (target.idle?.[g as keyof Spent] ?? 0) * seconds))]),
  ) as Spent;
  return { cpuUs, rawCpuUs, busyCpus: total.machine / (seconds * 1e6) };
}

export async function measureHttp(scenario: 'gives' | 'feed', target: Target, spec: LoadSpec): Promise<Measured> {
  let start: Snapshot | undefined;
  let members: Members | undefined;
  const r = await forkLoad(spec, {
    measuring: (pid) => {
      members = { ...target.members, loadPid: pid };
      start = snapshot(members);
    },
    measured: (m) => perRequest(target, start!, snapshot(members!), m.requestsTotal),
  });
  if (!r.cpuUs) throw new Error(`${scenario} via ${target.via}: the load generator measured nothing`);
  return {
    scenario,
    via: target.via,
    nodes: target.nodes,
    perSecond: r.requestsPerSecond,
    count: r.requestsTotal,
    p50: r.latencyP50,
    p99: r.latencyP99,
    failures: r.errors + r.timeouts + r.non2xx,
    cpuUs: r.cpuUs,
    rawCpuUs: r.rawCpuUs!,
    busyCpus: r.busyCpus ?? 0,
    load: r,
  };
}

export interface ChatLoad {
  pairs: ChatPairs;
  rate: number;
  seconds: number;
  window: number;
}

/** Loopback addresses the chat clients connect from: nginx's socket upstream is sticky by client address. */
const SOURCE_ADDRESSES = 64;

export async function measureChat(target: Target, load: ChatLoad): Promise<Measured> {
  const clients = child('clients');
  const members: Members = { ...target.members, loadPid: clients.pid! };
  const marks: Snapshot[] = [];
  clients.on('message', (m: ClientsPhase | { type: string }) => {
    if (m.type === 'phase') marks.push(snapshot(members));
  });
  const spec: ClientSpec = {
    kind: 'giftlink',
    urls: [target.url],
    clients: load.pairs.tokens.map((credential, i) => ({ url: 0, credential, localAddress: `127.0.0.${10 + (i % SOURCE_ADDRESSES)}` })),
    targets: load.pairs.conversations,
    rate: load.rate,
    seconds: load.seconds,
    window: load.window,
  };
  clients.send(spec);
  const result = await nextMessage<ClientsResult>(clients, 'result');
  await exited(clients);
  if (marks.length < 2) throw new Error('the chat clients never reported their saturation phase');
  const sat = result.saturation;
  return {
    scenario: 'chat',
    via: target.via,
    nodes: target.nodes,
    perSecond: sat.messagesPerSecond,
    count: sat.sent,
    p50: sat.p50,
    p99: sat.p99,
    failures: sat.errors + sat.lost + result.fixed.errors + result.fixed.lost,
    ...perRequest(target, marks[0], marks[1], sat.sent),
    chatFixed: { rate: load.rate, p50: result.fixed.p50, p99: result.fixed.p99, lost: result.fixed.lost },
  };
}

function exited(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => (p.exitCode !== null ? resolve() : p.once('exit', () => resolve())));
}

/** The groups' names, for tables. */
export const CPU_COLUMNS = [...GROUPS, 'other'] as const;
