import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { LinkEntity } from '../links/entity.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer } from '../testing/server.js';
import { JobLeaseEntity } from './entity.js';
import { scheduledJobs } from './jobs.js';
import { Scheduler, periodOf, type ScheduledJob } from './scheduler.js';
import { expectLedgerSound } from '../testing/ledger.js';

/**
 * Scheduled jobs: a job runs once per period however many schedulers tick. On
 * PostgreSQL two API processes' worth of servers share one database, each with its own connection
 * pool and schedulers. On SQLite the schedulers share one server's database: better-sqlite3 waits
 * for another connection's lock synchronously, so two connections in one Node process would wait
 * on each other (separate processes do not); one file's writers take turns either way.
 */
const postgres = Boolean(loadConfig().databaseUrl);
let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer();
  second = postgres ? await startTestServer({ share: first }) : first;
});
afterAll(async () => {
  if (second !== first) await second?.close();
  await first?.close();
});

const MINUTE = 60_000;
/** A moment far from the real clock, so the servers' own schedulers never claim these periods. */
const T0 = Date.parse('2031-03-04T05:06:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

/** A job that records which scheduler ran it, for which `now`. */
function countingJob(name: string, runs: { by: string; now: Date }[], by: string, everyMs = MINUTE): ScheduledJob {
  return { name, everyMs, run: async (now) => void runs.push({ by, now }) };
}

describe('one run per period across processes', () => {
  it('two processes ticking the same period run the job once; the next period runs it once more', async () => {
    const name = `test.count.${crypto.randomBytes(4).toString('hex')}`;
    const runs: { by: string; now: Date }[] = [];
    const a = new Scheduler(first.deps.db, [countingJob(name, runs, 'a')], { owner: 'process-a' });
    const b = new Scheduler(second.deps.db, [countingJob(name, runs, 'b')], { owner: 'process-b' });

    const ran = await Promise.all([a.tick(at(10_000)), b.tick(at(10_000))]);
    expect(runs).toHaveLength(1);
    expect(ran.flat()).toEqual([name]);
    const lease = await first.deps.db.manager.findOneByOrFail(JobLeaseEntity, { name });
    expect(lease.owner).toBe(runs[0].by === 'a' ? 'process-a' : 'process-b');
    expect(lease.runAt.getTime()).toBe(T0 + MINUTE);

    // Later in the same period, and a restarted process (a fresh scheduler): nothing more.
    await Promise.all([a.tick(at(30_000)), b.tick(at(59_999))]);
    const restarted = new Scheduler(second.deps.db, [countingJob(name, runs, 'c')]);
    expect(await restarted.tick(at(45_000))).toEqual([]);
    expect(runs).toHaveLength(1);

    // The next period: once, whoever ticks.
    await Promise.all([a.tick(at(MINUTE)), b.tick(at(MINUTE + 5)), restarted.tick(at(MINUTE + 10))]);
    expect(runs).toHaveLength(2);
    // A period nobody ticked in (all processes down) is not made up: the next tick runs once.
    await Promise.all([a.tick(at(5 * MINUTE + 1)), b.tick(at(5 * MINUTE + 1))]);
    expect(runs).toHaveLength(3);
  });

  it('many schedulers ticking at once over ten periods: exactly one run each', async () => {
    const name = `test.many.${crypto.randomBytes(4).toString('hex')}`;
    const runs: { by: string; now: Date }[] = [];
    const schedulers = Array.from(
      { length: 6 },
      (_, i) => new Scheduler((i % 2 ? second : first).deps.db, [countingJob(name, runs, `s${i}`, 10_000)]),
    );
    for (let period = 0; period < 10; period++) await Promise.all(schedulers.map((s, i) => s.tick(at(period * 10_000 + i * 7))));
    expect(runs).toHaveLength(10);
    expect(runs.map((r) => periodOf({ everyMs: 10_000 }, r.now).start.getTime())).toEqual(
      Array.from({ length: 10 }, (_, p) => T0 + p * 10_000),
    );
  });

  it('a failing job gives up its period, the other jobs still run, and it runs again next period', async () => {
    const suffix = crypto.randomBytes(4).toString('hex');
    const runs: { by: string; now: Date }[] = [];
    let fail = true;
    const flaky: ScheduledJob = {
      name: `test.flaky.${suffix}`,
      everyMs: MINUTE,
      run: async (now) => {
        if (fail) throw new Error('boom');
        runs.push({ by: 'flaky', now });
      },
    };
    const s = new Scheduler(first.deps.db, [flaky, countingJob(`test.after.${suffix}`, runs, 'after')]);
    expect(await s.tick(at(0))).toEqual([`test.after.${suffix}`]);
    fail = false;
    expect(await s.tick(at(1_000))).toEqual([]);
    expect(await s.tick(at(MINUTE))).toEqual([`test.flaky.${suffix}`, `test.after.${suffix}`]);
  });

  it('runs on the injected clock once started, and stops', async () => {
    const name = `test.clock.${crypto.randomBytes(4).toString('hex')}`;
    const runs: { by: string; now: Date }[] = [];
    let now = at(20 * MINUTE);
    const s = new Scheduler(first.deps.db, [countingJob(name, runs, 'clock')], { clock: () => now, maxSleepMs: 100 });
    s.start();
    await expect.poll(() => runs.length).toBe(1);
    expect(runs[0].now).toEqual(at(20 * MINUTE));
    now = at(21 * MINUTE);
    await expect.poll(() => runs.length, { timeout: 3_000 }).toBe(2);
    await s.stop();
    now = at(22 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs).toHaveLength(2);
  });
});

describe('stopping (SIGTERM)', () => {
  it('lets the job under way finish its period and starts no other job or period', async () => {
    const suffix = crypto.randomBytes(4).toString('hex');
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runs: string[] = [];
    const slow: ScheduledJob = {
      name: `test.slow.${suffix}`,
      everyMs: MINUTE,
      run: async () => {
        started();
        await new Promise<void>((resolve) => (release = resolve));
        runs.push('slow');
      },
    };
    const after: ScheduledJob = { name: `test.next.${suffix}`, everyMs: MINUTE, run: async () => void runs.push('next') };
    let now = at(40 * MINUTE);
    const s = new Scheduler(first.deps.db, [slow, after], { clock: () => now, maxSleepMs: 100 });
    s.start();
    await running;
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(runs).toEqual(['slow']);
    now = at(41 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toEqual(['slow']);
    expect(await first.deps.db.manager.findOneBy(JobLeaseEntity, { name: after.name })).toBeNull();
  });
});

describe('the registered jobs', () => {
  it("lists the link sweep, the alerts' pruning, the hourly optimize, the order sweep, pending payments, the sandbox's disputes, subscription renewals and reminders and closed accounts' usernames", () => {
    const jobs = scheduledJobs(first.deps, first.deps.payments);
    expect(jobs.map((j) => j.name)).toEqual([
      'links.expire',
      'alerts.prune',
      'db.optimize',
      'orders.sweep',
      'payments.resolve',
      'payments.sandbox-disputes',
      'payments.reconcile',
      'subscriptions.renew',
      'subscriptions.remind',
      'accounts.release',
    ]);
    // PRAGMA optimize and the reader's reopening run hourly, not with the minute's link sweep.
    expect(jobs.find((j) => j.name === 'db.optimize')?.everyMs).toBe(60 * 60_000);
    expect(jobs.find((j) => j.name === 'links.expire')?.everyMs).toBe(60_000);
  });

  it("refunds an expired link's escrow exactly once when both processes' schedulers run the sweep", async () => {
    const [hal, ivy] = await buildUsers(first, 2, 'jobexp');
    await depositFor(first, hal, 30);
    const created = await first.request('POST', '/links/create', {
      token: hal.token,
      body: {
        creatorUserId: hal.user._id,
        creatorUsername: hal.user.username,
        details: { giveorreceive: 'give', type: 'currency', amount: 4, initialQuantity: 5 },
      },
    });
    expect(created.status).toBe(201);
    expect(
      (await second.request('PUT', '/api/accept-link', { token: ivy.token, body: { linkCreatorUsername: hal.user.username } })).status,
    ).toBe(200);
    expect(await balanceOfUser(first, hal)).toBe(10);
    const expiresAt = new Date(Date.now() + 60 * MINUTE);
    await first.deps.db.transaction((em) => em.update(LinkEntity, { creatorId: hal.user._id }, { expiresAt }));

    // Both processes' schedulers, on a clock a day ahead: one of them sweeps, once.
    const clock = () => new Date(Date.now() + 24 * 60 * MINUTE);
    const a = new Scheduler(first.deps.db, scheduledJobs(first.deps, first.deps.payments), { clock });
    const b = new Scheduler(second.deps.db, scheduledJobs(second.deps, second.deps.payments), { clock });
    const ran = await Promise.all([a.tick(), b.tick()]);
    expect(ran.flat().filter((n) => n === 'links.expire')).toHaveLength(1);
    expect(await balanceOfUser(first, hal)).toBe(26);
    // Once more in the same period: nothing moves.
    await Promise.all([a.tick(), b.tick()]);
    expect(await balanceOfUser(first, hal)).toBe(26);
    await expectLedgerSound(first.deps.db);
  });
});
