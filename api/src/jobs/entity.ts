import { EntitySchema } from 'typeorm';
import { dateColumn } from '../db/columns.js';

/** One scheduled job's lease: the period it may next run (jobs/scheduler.ts). */
export interface JobLease {
  /** The job's name, e.g. `links.expire`. */
  name: string;
  /** The start of the next period not yet claimed: a process claims it when `run_at <= now`. */
  runAt: Date;
  /** The process that claimed the latest period. */
  owner: string | null;
  claimedAt: Date | null;
}

export const JobLeaseEntity = new EntitySchema<JobLease>({
  name: 'JobLease',
  tableName: 'job_leases',
  columns: {
    name: { type: 'varchar', length: 64, primary: true },
    runAt: { ...dateColumn(), name: 'run_at' },
    owner: { type: 'varchar', length: 64, nullable: true },
    claimedAt: { ...dateColumn(true), name: 'claimed_at' },
  },
});
