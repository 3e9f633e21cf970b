import { JobName, scanDomainJob, scanJobOptions, type ScanTrigger } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import type { Queue } from 'bullmq';
import { QUEUE_ADD_TIMEOUT_MS, withTimeout } from '@sendwell/server-kit';

/** A `queued` scan row and what its job carries. */
export interface ScanToQueue {
  scanId: string;
  domainId: number;
  trigger: ScanTrigger;
}

export interface QueueScansOutcome {
  queued: ScanToQueue[];
  /** Their domain already had a scan pending: their rows were deleted, and that scan stands for them. */
  deduplicated: Array<ScanToQueue & { pendingScanId: string }>;
}

/** A new `queued` scan row, the first step of a scan request; `ScanRequests.queue` adds its job. */
export async function createScan(db: Executor, domainId: number, trigger: ScanTrigger): Promise<string> {
  const row = await db.insertInto('scans').values({ domainId, trigger }).returning(['id']).executeTakeFirstOrThrow();
  return row.id;
}

/** A `scan-domain` job as `addBulk` takes it, with the options every producer shares. */
export function scanJob(scanId: string, domainId: number, trigger: ScanTrigger) {
  return { name: JobName.ScanDomain, data: scanDomainJob.parse({ scanId, domainId, trigger }), opts: scanJobOptions(scanId, domainId) };
}

/**
 * The one way a scan is asked for, whoever asks (a user, the domains service for a new domain, the
 * scanner's sweeper and recovery pass, billing when a plan changes): a `queued` scan row (`createScan`,
 * or the sweeper's claim statement), then its
 * `scan-domain` job with the options every producer shares (scanJobOptions: the job id is the scan id,
 * deduplicated by domain). A row whose domain already has a scan pending is deleted; a row whose job
 * the queue refused is failed, so no row reads as waiting for a job that does not exist.
 */
export class ScanRequests {
  constructor(
    private readonly scanQueue: Queue,
    private readonly addTimeoutMs = QUEUE_ADD_TIMEOUT_MS,
  ) {}

  /**
   * Adds the scans' jobs; for each, the id of the job that stands for it: its own (a job of that id
   * that still exists is left as it is), or the domain's pending scan when deduplicated. Throws when
   * the queue refuses or does not answer within the timeout (BullMQ itself waits without a limit).
   */
  async addJobs(scans: ScanToQueue[]): Promise<string[]> {
    if (scans.length === 0) return [];
    const jobs = await withTimeout(
      this.scanQueue.addBulk(scans.map((s) => scanJob(s.scanId, s.domainId, s.trigger))),
      this.addTimeoutMs,
    );
    return scans.map((s, i) => jobs[i]?.id ?? s.scanId);
  }

  /**
   * Queues the jobs of `queued` scan rows: the deduplicated rows are deleted, and when the queue
   * refuses, every row is failed with `unqueuedError` and the error is thrown again.
   */
  async queue(db: Executor, scans: ScanToQueue[], unqueuedError: string): Promise<QueueScansOutcome> {
    let jobIds: string[];
    try {
      jobIds = await this.addJobs(scans);
    } catch (error) {
      await this.failQueued(db, scans.map((s) => s.scanId), unqueuedError);
      throw error;
    }
    const outcome: QueueScansOutcome = { queued: [], deduplicated: [] };
    scans.forEach((s, i) => {
      if (jobIds[i] === s.scanId) outcome.queued.push(s);
      else outcome.deduplicated.push({ ...s, pendingScanId: jobIds[i]! });
    });
    await this.deleteQueued(db, outcome.deduplicated.map((s) => s.scanId));
    return outcome;
  }

  /** Scan rows still `queued` whose job was never added (another scan of the domain stands for them). */
  async deleteQueued(db: Executor, scanIds: string[]): Promise<void> {
    if (scanIds.length === 0) return;
    await db.deleteFrom('scans').where('id', 'in', scanIds).where('status', '=', 'queued').execute();
  }

  /** Scan rows still `queued` whose job could not be added: failed with the reason, never left waiting. */
  async failQueued(db: Executor, scanIds: string[], error: string): Promise<void> {
    if (scanIds.length === 0) return;
    await db
      .updateTable('scans')
      .set({ status: 'failed', error, completedAt: sql<Date>`now()` })
      .where('id', 'in', scanIds)
      .where('status', '=', 'queued')
      .execute();
  }
}
