import {
  BLACKLIST_CHECK_STARTED_MESSAGE,
  JobName,
  MANUAL_SCAN_COOLDOWN_MS,
  SCAN_NOT_FOUND,
  SCAN_QUEUE_UNAVAILABLE,
  SCAN_STARTED_MESSAGE,
  DOMAIN_NOT_FOUND,
  scanJobOptions,
  scanStatusSchema,
  type Scan,
  type ScanDomainAnswer,
  type ScanTrigger,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { notFound, rateLimited, upstreamUnavailable, type AuthUser, type Logger, type Queues } from '@sendwell/server-kit';
import { isStoredId } from '../repositories/db.js';
import { DomainRepository } from '../repositories/domain.repository.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import { toScanDto } from '../mappers/scan.mapper.js';
import { cooldownRefusal } from './domain-rules.js';

const UNQUEUED_ERROR = 'The scan could not be queued; please try again.';
/**
 * BullMQ waits for its connection to be ready before adding, without a limit of its own; an HTTP call
 * must not wait with it, so a Redis that does not answer in this time means 503.
 */
export const QUEUE_ADD_TIMEOUT_MS = 3_000;

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Scans asked for by users (Scan Now, the blacklist re-check, a new domain's first scan) and their progress. */
export class ScanService {
  constructor(
    private readonly db: Database,
    private readonly queues: Queues,
    private readonly logger: Logger,
  ) {}

  /**
   * Queues the job of an existing `queued` scan row with the options every producer shares, so a
   * domain never has two scans pending. When BullMQ answers with another job (the domain's pending
   * scan), this row is moot: it is deleted and the pending scan's id is the answer.
   */
  async enqueue(scanId: string, domainId: number, trigger: ScanTrigger): Promise<{ scanId: string; deduplicated: boolean }> {
    const job = await withTimeout(this.queues.add(JobName.ScanDomain, { scanId, domainId, trigger }, scanJobOptions(scanId, domainId)), QUEUE_ADD_TIMEOUT_MS);
    if (job.id && job.id !== scanId) {
      await new ScanRepository(this.db).deleteQueued(scanId);
      this.logger.info({ domainId, scanId, pendingScanId: job.id }, 'scan already pending: new scan dropped');
      return { scanId: job.id, deduplicated: true };
    }
    this.logger.info({ domainId, scanId, trigger }, 'scan queued');
    return { scanId, deduplicated: false };
  }

  /** Marks a scan row whose job could not be queued, so it never reads as waiting. */
  async markUnqueued(scanId: string): Promise<void> {
    await new ScanRepository(this.db).failQueued(scanId, UNQUEUED_ERROR);
  }

  /**
   * Scan Now (`manual`) and the blacklist re-check (`blacklist`, a full scan: the blacklist check is one
   * of its six). At most one per domain per cooldown on every plan; the claim is recorded by the same
   * statement that checks it.
   */
  async request(user: AuthUser, domainId: number, trigger: Extract<ScanTrigger, 'manual' | 'blacklist'>): Promise<ScanDomainAnswer> {
    if (!isStoredId(domainId)) throw notFound(DOMAIN_NOT_FOUND);
    const domains = new DomainRepository(this.db);
    const claim = await domains.claimManualScan(user.id, domainId, MANUAL_SCAN_COOLDOWN_MS);
    if (claim.kind === 'missing') throw notFound(DOMAIN_NOT_FOUND);
    if (claim.kind === 'cooling') {
      const refusal = cooldownRefusal(claim.retryAfterMs);
      throw rateLimited(refusal.message, refusal.retryAfterSeconds);
    }

    const scans = new ScanRepository(this.db);
    const newScanId = await scans.create(domainId, trigger);
    let queued: { scanId: string; deduplicated: boolean };
    try {
      queued = await this.enqueue(newScanId, domainId, trigger);
    } catch (err) {
      this.logger.error({ err, domainId, scanId: newScanId }, 'could not queue scan');
      await this.markUnqueued(newScanId);
      // The refused attempt must not cost the user their next five minutes.
      await domains.releaseManualScan(domainId, claim.claimedAt);
      throw upstreamUnavailable(SCAN_QUEUE_UNAVAILABLE, err);
    }
    const row = await scans.findById(queued.scanId);
    return {
      scanId: queued.scanId,
      domainId,
      status: scanStatusSchema.catch('queued').parse(row?.status ?? 'queued'),
      message: trigger === 'blacklist' ? BLACKLIST_CHECK_STARTED_MESSAGE : SCAN_STARTED_MESSAGE,
    };
  }

  /** One scan's progress, for the web app to follow a scan it started. */
  async status(user: AuthUser, domainId: number, scanId: string): Promise<Scan> {
    if (!isStoredId(domainId)) throw notFound(SCAN_NOT_FOUND);
    const row = await new ScanRepository(this.db).findOwned(user.id, scanId, domainId);
    if (!row) throw notFound(SCAN_NOT_FOUND);
    return toScanDto(row);
  }
}
