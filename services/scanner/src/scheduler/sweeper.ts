import { sweepDueDomainsJob } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import { UnrecoverableError, type Queue } from 'bullmq';
import { ScanRepository } from '../repositories/scan.repository.js';
import { ScheduleRepository } from '../repositories/schedule.repository.js';
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
    // One batch's enqueue (Redis) runs while the next batch is claimed (Postgres): the two take
    // similar time, so overlapping them nearly doubles a sweep's rate (bench/scanner measures it).
    // The outcome is captured at once so a failed enqueue is never an unhandled rejection.
    let inFlight: Promise<{ ok: EnqueueOutcome } | { error: unknown }> | undefined;
    const settle = async (): Promise<void> => {
      const outcome = await inFlight;
      inFlight = undefined;
      if (!outcome) return;
      if ('error' in outcome) throw outcome.error;
      total.queued += outcome.ok.queued;
      total.deduplicated += outcome.ok.deduplicated;
    };
    try {
      for (let i = 0; i < maxBatches; i++) {
        const { claimed, scans } = await schedule.claimDue(this.options.batch, this.options.leaseMs);
        total.claimed += claimed;
        try {
          await settle();
        } catch (error) {
          // The previous batch could not be queued, so this one will not be either: mark its scans failed too.
          await new ScanRepository(this.db).failQueued(scans.map((c) => c.scanId), 'The scan could not be queued; it will be retried.');
          throw error;
        }
        if (scans.length > 0) {
          inFlight = this.enqueue(scans).then(
            (ok) => ({ ok }),
            (error: unknown) => ({ error }),
          );
        }
        // A short batch means the due rows ran out (or the rest are locked by another sweeper).
        if (claimed < this.options.batch) break;
      }
      await settle();
    } finally {
      // A claim that threw leaves an enqueue in flight: let it finish (it handles its own failure).
      await inFlight;
    }
    this.metrics?.domainsClaimed.inc(total.queued);
    if (total.claimed > 0) this.logger.info(total, 'due domains queued');
    return total;
  }

  private async enqueue(claims: Array<{ scanId: string; domainId: number }>): Promise<EnqueueOutcome> {
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
