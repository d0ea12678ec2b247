import type { Middleware } from './context.js';

/** Why the process is not ready: still starting, draining after SIGTERM, or a dependency not answering. */
export type NotReady = 'starting' | 'draining' | 'database' | 'redis';

/** A probe's answer is reused this long, so a storm of probes costs one check of each dependency. */
const CACHE_MS = 1_000;
/** A dependency that has not answered within this is down, as far as readiness goes. */
const PROBE_TIMEOUT_MS = 1_000;

export interface ReadinessProbes {
  /** Answers once the database does (a one-row read). */
  database: () => Promise<unknown>;
  /** Multi-node mode: answers once Redis does (PING). */
  redis?: () => Promise<unknown>;
}

/**
 * Whether this process should get traffic (/readyz): `serving` once start-up is done, `drain` on
 * SIGTERM, and meanwhile whether its database and Redis answer, checked at most once a
 * CACHE_MS, each check bounded by PROBE_TIMEOUT_MS.
 */
export class Readiness {
  private phase: 'starting' | 'serving' | 'draining' = 'starting';
  private last?: { at: number; answer: Promise<NotReady | undefined> };
  /** Per dependency, a check that has not settled: none is started beside it, so a hung one is never piled on. */
  private readonly hung = new Map<keyof ReadinessProbes, Promise<unknown>>();

  constructor(private readonly probes: ReadinessProbes) {}

  serving(): void {
    if (this.phase === 'starting') this.phase = 'serving';
  }

  drain(): void {
    this.phase = 'draining';
  }

  get draining(): boolean {
    return this.phase === 'draining';
  }

  /** Undefined when ready, else why not. */
  async check(): Promise<NotReady | undefined> {
    if (this.phase !== 'serving') return this.phase;
    const now = Date.now();
    if (!this.last || now - this.last.at >= CACHE_MS) this.last = { at: now, answer: this.probe() };
    const answer = await this.last.answer;
    return this.phase === 'serving' ? answer : this.phase;
  }

  private async probe(): Promise<NotReady | undefined> {
    const [database, redis] = await Promise.all([this.answers('database'), this.answers('redis')]);
    if (!database) return 'database';
    if (!redis) return 'redis';
    return undefined;
  }

  /** Whether the dependency answers within PROBE_TIMEOUT_MS (true when there is none to ask). */
  private answers(name: keyof ReadinessProbes): Promise<boolean> {
    const probe = this.probes[name];
    if (!probe) return Promise.resolve(true);
    if (this.hung.has(name)) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      const check = probe().then(
        () => true,
        () => false,
      );
      this.hung.set(name, check);
      void check.then((ok) => {
        clearTimeout(timer);
        this.hung.delete(name);
        resolve(ok);
      });
    });
  }
}

/**
 * Answers GET /readyz (200 `{status: 'ready'}`, else 503 with the reason), before any rate limit.
 * While draining, every answer closes its connection, so kept-alive clients go elsewhere.
 */
export function readinessMiddleware(readiness: Readiness): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/readyz') {
      await next();
      // Asked here, after the work: a request that came before SIGTERM is answered during the drain.
      if (readiness.draining && !ctx.headerSent) ctx.set('Connection', 'close');
      return;
    }
    if (readiness.draining) ctx.set('Connection', 'close');
    const reason = await readiness.check();
    ctx.set('Cache-Control', 'no-store');
    ctx.status = reason ? 503 : 200;
    ctx.body = { status: reason ?? 'ready' };
  };
}
