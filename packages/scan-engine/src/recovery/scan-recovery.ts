import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import type { Queue } from 'bullmq';
import { ScanRows, type UnfinishedScan } from '../record/scan-rows.js';
import { ScanRequests } from '../requests/scan-requests.js';

export interface ScanRecoveryOptions {
  /** A `queued` or `running` scan with no sign of life for this long is looked at (SCAN_RECOVERY_LEASE_MS). */
  leaseMs: number;
  /** Re-queues of one scan before it is failed for good (SCAN_RECOVERY_TRIES). */
  maxTries: number;
  /** Scans looked at per statement, and statements per pass at most. */
  batch: number;
  maxBatches?: number;
}

export interface RecoveryResult {
  /** Unfinished scans past the lease that were looked at. */
  checked: number;
  /** Their job was gone (Redis lost it): queued again under the scan's id. */
  requeued: number;
  /** Given up: lost too often, refused by Redis too often, or their job ended without a result. */
  failed: number;
  /** Their job was gone but another scan of the domain is pending: that one stands for them. */
  superseded: number;
}

export const LOST_TOO_OFTEN = (tries: number) => `The scan's job was lost by the queue ${tries} times; the scan was given up.`;
export const UNQUEUEABLE = (tries: number) => `The scan could not be queued again after ${tries} tries (the queue did not answer); the scan was given up.`;
export const ENDED_WITHOUT_RESULT = "The scan's job ended without recording a result.";
export const SUPERSEDED = 'Another scan of this domain was queued in its place.';

/**
 * Re-queues scans whose BullMQ job vanished (Redis lost its data or failed over, a producer died
 * between the row and the job), so no scan stays `queued` or `running` for ever. Safe to repeat and to
 * run beside a live queue: the job id is the scan id, so adding a job that still exists is a no-op,
 * and a scan whose job is waiting or active is left alone (only looked at again one lease later).
 * A scan re-queued `maxTries` times, or that Redis refused that often, is failed with the reason.
 */
export class ScanRecovery {
  private readonly requests: ScanRequests;

  constructor(
    private readonly db: Database,
    private readonly scanQueue: Queue,
    private readonly options: ScanRecoveryOptions,
    private readonly logger: Logger,
  ) {
    this.requests = new ScanRequests(scanQueue);
  }

  async run(): Promise<RecoveryResult> {
    const total: RecoveryResult = { checked: 0, requeued: 0, failed: 0, superseded: 0 };
    const repo = new ScanRows(this.db);
    for (let i = 0; i < (this.options.maxBatches ?? 10); i++) {
      const scans = await repo.claimUnfinished(this.options.leaseMs, this.options.batch);
      total.checked += scans.length;
      if (scans.length > 0) {
        const outcome = await this.recover(repo, scans);
        total.requeued += outcome.requeued;
        total.failed += outcome.failed;
        total.superseded += outcome.superseded;
      }
      if (scans.length < this.options.batch) break;
    }
    if (total.requeued + total.failed + total.superseded > 0) this.logger.warn(total, 'unfinished scans without a job recovered');
    return total;
  }

  private async recover(repo: ScanRows, scans: UnfinishedScan[]): Promise<Omit<RecoveryResult, 'checked'>> {
    const outcome = { requeued: 0, failed: 0, superseded: 0 };
    let lost: UnfinishedScan[];
    try {
      const states = await Promise.all(scans.map((s) => this.scanQueue.getJobState(s.scanId)));
      const ended = scans.filter((_, i) => states[i] === 'completed' || states[i] === 'failed');
      await repo.failUnfinished(ended.map((s) => s.scanId), ENDED_WITHOUT_RESULT);
      outcome.failed += ended.length;
      // Any other state (waiting, active, delayed…): the job will write the scan itself.
      lost = scans.filter((_, i) => states[i] === 'unknown');
    } catch (error) {
      outcome.failed += await this.countRefusedTry(repo, scans, error);
      return outcome;
    }

    const givenUp = lost.filter((s) => s.recoveryTries >= this.options.maxTries);
    await repo.failUnfinished(givenUp.map((s) => s.scanId), LOST_TOO_OFTEN(this.options.maxTries));
    outcome.failed += givenUp.length;
    const retry = lost.filter((s) => s.recoveryTries < this.options.maxTries);
    if (retry.length === 0) return outcome;

    let jobIds;
    try {
      jobIds = await this.requests.addJobs(retry);
    } catch (error) {
      outcome.failed += await this.countRefusedTry(repo, retry, error);
      return outcome;
    }
    await repo.countRecoveryTry(retry.map((s) => s.scanId));
    // BullMQ answers with the domain's pending job when its deduplication key is held by another scan.
    const superseded = retry.filter((s, i) => jobIds[i] !== s.scanId);
    await this.requests.deleteQueued(this.db, superseded.filter((s) => s.status === 'queued').map((s) => s.scanId));
    await repo.failUnfinished(superseded.map((s) => s.scanId), SUPERSEDED);
    outcome.superseded += superseded.length;
    outcome.requeued += retry.length - superseded.length;
    return outcome;
  }

  /** Redis did not answer: one more try for each scan, and those out of tries fail. Returns how many failed. */
  private async countRefusedTry(repo: ScanRows, scans: UnfinishedScan[], error: unknown): Promise<number> {
    this.logger.error({ err: error, scans: scans.length }, 'could not re-queue unfinished scans');
    await repo.countRecoveryTry(scans.map((s) => s.scanId));
    const givenUp = scans.filter((s) => s.recoveryTries + 1 >= this.options.maxTries);
    await repo.failUnfinished(givenUp.map((s) => s.scanId), UNQUEUEABLE(this.options.maxTries));
    return givenUp.length;
  }
}
