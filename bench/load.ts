/**
 * The load generator, run as a child process of bench/run.ts so that autocannon does not share
 * the server's event loop. Reads a LoadSpec (JSON file named by argv[2]), runs a short warm-up
 * and then the measured autocannon run, and sends a LoadResult back over IPC.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  duration: number;
  warmup: number;
  connections: number;
  /** A plain GET of `path`, gives rotating through distinct (giver, link) pairs, withdrawals rotating through users, or analytics events. */
  kind: 'get' | 'gives' | 'withdrawals' | 'events' | 'paths';
  path: string;
  gives?: { tokens: string[]; linkIds: string[]; amount: number };
  /** Withdrawals: user i (`tokens[i]`, `userIds[i]`) takes out `amount` dollars, a new Idempotency-Key each, as the website sends it. */
  withdrawals?: { tokens: string[]; userIds: string[]; amount: number };
  /** `paths`: GETs rotating through these (share images: a different link each request). */
  paths?: string[];
  /** Extra request headers (the inbox: the user's `x-auth-token`). */
  headers?: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  requestsTotal: number;
  durationSeconds: number;
  latencyP50: number;
  latencyP99: number;
  latencyMax: number;
  /** Socket errors and timeouts. */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** `status error-code` of each non-2xx answer (gives and withdrawals), e.g. `400 already_used`. */
  errorCodes: Record<string, number>;
  /** 2xx answers in warm-up and measured run together (gives: what the database should hold). */
  ok2xxIncludingWarmup: number;
  /** Gives only: pairs handed out past the last distinct one (would repeat a giver-link pair). */
  pairsExhausted: number;
  pairsAvailable?: number;
  /** The load generator's own CPU time (µs, user + system) per request of the measured run. */
  loadCpuUs: number;
  /** Set by bench/run.ts: the server's CPU time (µs, user + system) per request of the measured run. */
  serverCpuUs?: number;
  /** Set by bench/run.ts (Linux): PostgreSQL's processes' CPU time per request (bench/cpu.ts). */
  postgresCpuUs?: number;
  /** Set by bench/run.ts (Linux): the whole machine's busy CPU time per request. */
  machineCpuUs?: number;
  /** Set by bench/run.ts (Linux): how many CPUs were busy on average over the measured run. */
  busyCpus?: number;
}

/** Sent to the parent when the measured run begins (after the warm-up). */
export interface LoadPhase {
  phase: 'measuring';
}

function main(): void {
  const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as LoadSpec;
  const errorCodes: Record<string, number> = {};
  let counting = false;
  let next = 0;
  let pairsExhausted = 0;

  const requests: autocannon.Request[] = [];
  const countRefusal = (status: number, body: string) => {
    if (!counting || status < 300) return;
    let code = '?';
    try {
      code = String((JSON.parse(body) as { error?: unknown }).error ?? '?');
    } catch {
      // not JSON
    }
    const key = `${status} ${code}`;
    errorCodes[key] = (errorCodes[key] ?? 0) + 1;
  };
  if (spec.kind === 'gives') {
    const { tokens, linkIds, amount } = spec.gives!;
    const pairs = tokens.length * linkIds.length;
    requests.push({
      method: 'POST',
      path: spec.path,
      // Pair k is (giver k mod G, link k mod R): with G and R coprime that walks all G×R pairs once,
      // and requests in flight together have different givers and different links.
      setupRequest: (req) => {
        const k = next++;
        if (k >= pairs) pairsExhausted += 1;
        return {
          ...req,
          headers: { ...req.headers, 'x-auth-token': tokens[k % tokens.length] },
          body: JSON.stringify({ postId: linkIds[k % linkIds.length], amount }),
        };
      },
      onResponse: countRefusal,
    });
  } else if (spec.kind === 'withdrawals') {
    const { tokens, userIds, amount } = spec.withdrawals!;
    requests.push({
      method: 'POST',
      path: spec.path,
      // Requests in flight together are different users' (as many users as connections, or more).
      setupRequest: (req) => {
        const i = next++ % tokens.length;
        return {
          ...req,
          headers: { ...req.headers, 'x-auth-token': tokens[i], 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ userId: userIds[i], balance: amount }),
        };
      },
      onResponse: countRefusal,
    });
  } else if (spec.kind === 'events') {
    // A linkShare event per request, a new browser session every 50 (under the per-session limit).
    let session = crypto.randomUUID();
    requests.push({
      method: 'POST',
      path: spec.path,
      setupRequest: (req) => {
        if (next++ % 50 === 0) session = crypto.randomUUID();
        const event = { giveorreceive: 'give', type: 'currency', initialQuantity: 3, platform: 'bench' };
        return {
          ...req,
          body: JSON.stringify({ session_id: session, user_id: null, event_type: 'linkShare', event_details: event, page_url: '/share' }),
        };
      },
    });
  } else if (spec.kind === 'paths') {
    const paths = spec.paths!;
    requests.push({ method: 'GET', path: spec.path, setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) });
  } else {
    requests.push({ method: 'GET', path: spec.path });
  }

  const options = (duration: number): autocannon.Options => ({
    url: spec.url,
    connections: spec.connections,
    duration,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...spec.headers },
    requests,
  });

  void (async () => {
    let warm2xx = 0;
    if (spec.warmup > 0) {
      const warm = await autocannon(options(spec.warmup));
      warm2xx = warm['2xx'];
    }
    counting = true;
    process.send!({ phase: 'measuring' } satisfies LoadPhase);
    const cpuStart = process.cpuUsage();
    const r = await autocannon(options(spec.duration));
    const cpu = process.cpuUsage(cpuStart);
    const statusCodes = Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]),
    );
    const result: LoadResult = {
      requestsPerSecond: r.requests.average,
      requestsTotal: r.requests.total,
      durationSeconds: r.duration,
      latencyP50: r.latency.p50,
      latencyP99: r.latency.p99,
      latencyMax: r.latency.max,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      statusCodes,
      errorCodes,
      ok2xxIncludingWarmup: warm2xx + r['2xx'],
      pairsExhausted,
      pairsAvailable: spec.gives ? spec.gives.tokens.length * spec.gives.linkIds.length : undefined,
      loadCpuUs: r.requests.total ? (cpu.user + cpu.system) / r.requests.total : 0,
    };
    process.send!(result, () => process.exit(0));
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

main();
