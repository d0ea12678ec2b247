/**
 * Scheduled jobs: each job runs once per period however many API processes share the
 * database. Periods are aligned to the epoch (a one-minute job's periods start on the minute).
 * Every process ticks, but a tick only runs a job after claiming its period in `job_leases` with
 * one conditional update,
 *
 *     UPDATE job_leases SET run_at = <next period>, owner = <me> WHERE name = <job> AND run_at <= <now>
 *
 * which changes the row for exactly one claimant per period (PostgreSQL re-checks the condition
 * after waiting for the other's row lock; SQLite serialises writers). The claimant then runs the
 * job outside the claim's transaction. A job that fails (or a process that stops mid-job) gives
 * up that period; the next period runs it again, so job bodies stay safe to repeat (they settle by
 * conditional updates of their own).
 *
 * The clock is injectable: `tick(now)` runs the periods due at `now`, and the timer reads `clock`.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { dateParam } from '../db/dates.js';
import type { Database } from '../db/index.js';
import { JobLeaseEntity } from './entity.js';

export interface ScheduledJob {
  /** Unique per job, e.g. `links.expire` (at most 64 characters). */
  name: string;
  /** The period: the job runs once in each, across all processes. */
  everyMs: number;
  /** The job's work for the period that starts at or before `now`. */
  run(now: Date): Promise<unknown>;
}

export interface SchedulerOptions {
  /** The time now (default: the system clock). */
  clock?: () => Date;
  /** This process's name in `job_leases.owner` (default: host, pid and a random part). */
  owner?: string;
  log?: Logger;
  /** The timer never sleeps longer than this, so a clock moved forward is noticed (default a minute). */
  maxSleepMs?: number;
  /** Told of each run this process made, once it ended (the metrics). */
  onRun?: (job: string, run: JobRun) => void;
}

export interface JobRun {
  /** The tick's time: when the run began. */
  at: Date;
  /** How long after its period began the run began, in ms. */
  lagMs: number;
  /** How long it ran, in ms. */
  ms: number;
  ok: boolean;
}

export class Scheduler {
  readonly owner: string;
  private readonly clock: () => Date;
  /** Per job: the earliest time this process next tries to claim (the start of the next period). */
  private readonly nextTry = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Database,
    readonly jobs: readonly ScheduledJob[],
    private readonly options: SchedulerOptions = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.owner = (options.owner ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`).slice(0, 64);
    const names = new Set(jobs.map((j) => j.name));
    if (names.size !== jobs.length) throw new Error('scheduler: job names must be unique');
    for (const job of jobs) if (!(job.everyMs >= 1000) || job.name.length > 64) throw new Error(`scheduler: bad job ${job.name}`);
  }

  /**
   * Runs, one after another, every job whose period at `now` this process wins; answers the
   * names of the jobs it ran. A job's error is logged and does not stop the others.
   */
  async tick(now: Date = this.clock()): Promise<string[]> {
    const ran: string[] = [];
    for (const job of this.jobs) {
      if (this.stopped) break;
      const period = periodOf(job, now);
      if ((this.nextTry.get(job.name) ?? -Infinity) > now.getTime()) continue;
      this.nextTry.set(job.name, period.next.getTime());
      let won: boolean;
      try {
        won = await this.claim(job.name, period, now);
      } catch (err) {
        this.options.log?.error({ err, job: job.name }, 'job claim failed');
        continue;
      }
      if (!won) continue;
      const started = performance.now();
      let ok = false;
      try {
        await job.run(now);
        ran.push(job.name);
        ok = true;
        // One line per period run, across all processes: what shows a period never ran twice.
        this.options.log?.info({ job: job.name, period: period.start.toISOString(), owner: this.owner }, 'job period ran');
      } catch (err) {
        this.options.log?.error({ err, job: job.name }, 'job failed');
      }
      this.options.onRun?.(job.name, { at: now, lagMs: now.getTime() - period.start.getTime(), ms: performance.now() - started, ok });
    }
    return ran;
  }

  /** Claims the period for this process: true for exactly one claimant per job and period. */
  private claim(name: string, period: { start: Date; next: Date }, now: Date): Promise<boolean> {
    return this.db.transaction(async (em) => {
      await em
        .createQueryBuilder()
        .insert()
        .into(JobLeaseEntity)
        .values({ name, runAt: period.start, owner: null, claimedAt: null })
        .orIgnore()
        .execute();
      const result = await em
        .createQueryBuilder()
        .update(JobLeaseEntity)
        .set({ runAt: period.next, owner: this.owner, claimedAt: now })
        .where('name = :name AND run_at <= :now', { name, now: dateParam(em, now) })
        .execute();
      return result.affected === 1;
    });
  }

  /**
   * Ticks at the start of each job's next period, from the next one on (not at once: a process
   * starting up has its own work), until `stop`.
   */
  start(): void {
    if (this.timer || this.stopped) return;
    const wait = () => {
      if (this.stopped) return;
      this.timer = setTimeout(loop, this.sleepMs());
      this.timer.unref();
    };
    const loop = () => {
      this.current = this.tick()
        .catch((err: unknown) => this.options.log?.error({ err }, 'scheduler tick failed'))
        .finally(wait);
    };
    wait();
  }

  /**
   * Until the earliest next period of any job, plus up to a second at random, so processes do not
   * all claim in the same instant (the losers' claims are cheap, but need not queue up).
   */
  private sleepMs(): number {
    const clock = this.clock();
    const now = clock.getTime();
    const earliest = Math.min(...this.jobs.map((j) => this.nextTry.get(j.name) ?? periodOf(j, clock).next.getTime()));
    const jitter = 50 + Math.floor(Math.random() * 1000);
    return Math.max(50, Math.min(this.options.maxSleepMs ?? 60_000, earliest - now + jitter));
  }

  /** Stops the timer and waits for a tick under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }
}

/** The period of `job` containing `now`: [start, next). */
export function periodOf(job: Pick<ScheduledJob, 'everyMs'>, now: Date): { start: Date; next: Date } {
  const start = Math.floor(now.getTime() / job.everyMs) * job.everyMs;
  return { start: new Date(start), next: new Date(start + job.everyMs) };
}
