import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import type { Queue } from 'bullmq';
import { ScanRequests } from '../requests/scan-requests.js';
import { DueDomains, type ClaimedScan } from './due-domains.js';

const UNQUEUED = 'The scan could not be queued; it will be retried.';

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
  private readonly requests: ScanRequests;

  constructor(
    private readonly db: Database,
    scanQueue: Queue,
    private readonly options: SweeperOptions,
    private readonly logger: Logger,
    /** Told how many domains each sweep queued (the scanner's metrics). */
    private readonly onQueued?: (count: number) => void,
  ) {
    this.requests = new ScanRequests(scanQueue);
  }

  async sweep(): Promise<SweepResult> {
    const total: SweepResult = { claimed: 0, queued: 0, deduplicated: 0 };
    const maxBatches = this.options.maxBatches ?? 50;
    const schedule = new DueDomains(this.db);
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
          await this.requests.failQueued(this.db, claim.scans.map((c) => c.scanId), UNQUEUED);
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
    this.onQueued?.(total.queued);
    if (total.claimed > 0) this.logger.info(total, 'due domains queued');
    return total;
  }

  /** Not queued: the scan rows say so (failed), and the lease makes the domains due again shortly. */
  private async enqueue(claims: ClaimedScan[]): Promise<EnqueueOutcome> {
    const outcome = await this.requests.queue(this.db, claims.map((c) => ({ scanId: c.scanId, domainId: c.domainId, trigger: 'scheduled' as const })), UNQUEUED);
    return { queued: outcome.queued.length, deduplicated: outcome.deduplicated.length };
  }
}
