import { sweepDueDomainsJob } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import { UnrecoverableError, type Queue } from 'bullmq';
import { ScanRepository } from '../repositories/scan.repository.js';
import { ScheduleRepository, type ClaimedScan } from '../repositories/schedule.repository.js';
import { scanJob } from '../scan/scan-job.js';
import type { JobHandler } from '../workers/job-handler.js';
import type { ScanMetrics } from '../workers/scan-metrics.js';

export interface SweeperOptions {
  /** Domains claimed per statement (SCAN_SWEEP_BATCH). */
  batch: number;
  /** How far a claimed domain's due time moves while its scan is pending (SCAN_CLAIM_LEASE_MS). */
  leaseMs: number;
  /** Batches per sweep at most, so one sweep cannot run unbounded; the next sweep continues. */
  maxBatches?: number;
  /** Claim-then-queue loops run at once (see sweep()); default 3. */
  lanes?: number;
}

interface EnqueueOutcome {
  queued: number;
  deduplicated: number;
}

export interface SweepResult {
  claimed: number;
  queued: number;
  /** Domains that already had a scan pending; their new scan rows were dropped. */
  deduplicated: number;
}

/**
 * Claims due domains in batches and queues a scan for each. Several sweepers at once are safe
 * (SKIP LOCKED hands each due row to one of them), though the job scheduler runs only one at a time.
 */
export class Sweeper {
  constructor(
    private readonly db: Database,
    private readonly scanQueue: Queue,
    private readonly options: SweeperOptions,
    private readonly logger: Logger,
    private readonly metrics?: ScanMetrics,
  ) {}

  async sweep(): Promise<SweepResult> {
    const total: SweepResult = { claimed: 0, queued: 0, deduplicated: 0 };
    const maxBatches = this.options.maxBatches ?? 50;
    const schedule = new ScheduleRepository(this.db);
    let batches = 0;
    let exhausted = false;
    let failure: { error: unknown } | undefined;
    // Each lane claims a batch (Postgres), then queues it (Redis), and again. Several lanes keep
    // Postgres, Redis and this process busy at once, where one lane leaves two of them waiting on the
    // third (bench/scanner measures it). Their claims never overlap: SKIP LOCKED hands each due row to
    // one statement, and a claimed row is due again only after the lease, as with concurrent sweepers.
    const lane = async (): Promise<void> => {
      while (!exhausted && !failure && batches < maxBatches) {
        batches++;
        let claim;
        try {
          claim = await schedule.claimDue(this.options.batch, this.options.leaseMs);
        } catch (error) {
          failure ??= { error };
          return;
        }
        total.claimed += claim.claimed;
        // A short batch means the due rows ran out (or the rest are locked by another sweeper).
        if (claim.claimed < this.options.batch) exhausted = true;
        if (claim.scans.length === 0) continue;
        if (failure) {
          // Another batch could not be queued, so this one will not be either: mark its scans failed too.
          await new ScanRepository(this.db).failQueued(claim.scans.map((c) => c.scanId), 'The scan could not be queued; it will be retried.');
          return;
        }
        try {
          const outcome = await this.enqueue(claim.scans);
          total.queued += outcome.queued;
          total.deduplicated += outcome.deduplicated;
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    // Settled, not all: every lane has stopped before the sweep reports, whichever failed first.
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, this.options.lanes ?? 3) }, lane));
    if (failure) throw failure.error;
    const crashed = lanes.find((outcome) => outcome.status === 'rejected');
    if (crashed) throw crashed.reason;
    this.metrics?.domainsClaimed.inc(total.queued);
    if (total.claimed > 0) this.logger.info(total, 'due domains queued');
    return total;
  }

  private async enqueue(claims: ClaimedScan[]): Promise<EnqueueOutcome> {
    const scans = new ScanRepository(this.db);
    let jobs;
    try {
      jobs = await this.scanQueue.addBulk(claims.map((c) => scanJob(c.scanId, c.domainId, 'scheduled')));
    } catch (error) {
      // Not queued: the scan rows say so, and the lease makes the domains due again shortly.
      await scans.failQueued(claims.map((c) => c.scanId), 'The scan could not be queued; it will be retried.');
      throw error;
    }
    const duplicates = claims.filter((c, i) => jobs[i]?.id !== c.scanId).map((c) => c.scanId);
    await scans.deleteQueued(duplicates);
    return { queued: claims.length - duplicates.length, deduplicated: duplicates.length };
  }
}

export function sweepHandler(sweeper: Sweeper): JobHandler {
  return async (job) => {
    if (!sweepDueDomainsJob.safeParse(job.data ?? {}).success) throw new UnrecoverableError('invalid sweep-due-domains payload');
    return sweeper.sweep();
  };
}
