import {
  domainLimit,
  scanPausedMessage,
  BLACKLIST_CHECK_STARTED_MESSAGE,
  MANUAL_SCAN_COOLDOWN_MS,
  SCAN_NOT_FOUND,
  SCAN_QUEUE_UNAVAILABLE,
  SCAN_STARTED_MESSAGE,
  DOMAIN_NOT_FOUND,
  scanStatusSchema,
  type Scan,
  type ScanDomainAnswer,
  type ScanTrigger,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { createScan, notFound, planLimit, rateLimited, ScanRequests, upstreamUnavailable, type AuthUser, type Logger, type Queues } from '@sendwell/server-kit';
import { DomainRepository } from '../repositories/domain.repository.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import { toScanDto } from '../mappers/scan.mapper.js';
import { cooldownRefusal } from './domain-rules.js';

const UNQUEUED_ERROR = 'The scan could not be queued; please try again.';

/** Scans asked for by users (Scan Now, the blacklist re-check, a new domain's first scan) and their progress. */
export class ScanService {
  /** The one scan-request path (server-kit), shared with the scanner's sweeper. */
  readonly requests: ScanRequests;

  constructor(
    private readonly db: Database,
    queues: Queues,
    private readonly logger: Logger,
  ) {
    this.requests = new ScanRequests(queues.scan);
  }

  /**
   * Queues the job of an existing `queued` scan row. When the domain already has a scan pending, this
   * row is deleted and the pending scan's id is the answer; when the queue refuses (or does not answer
   * in time), the row is failed and the error thrown.
   */
  async enqueue(scanId: string, domainId: number, trigger: ScanTrigger): Promise<{ scanId: string; deduplicated: boolean }> {
    const { deduplicated } = await this.requests.queue(this.db, [{ scanId, domainId, trigger }], UNQUEUED_ERROR);
    const pending = deduplicated[0]?.pendingScanId;
    if (pending) {
      this.logger.info({ domainId, scanId, pendingScanId: pending }, 'scan already pending: new scan dropped');
      return { scanId: pending, deduplicated: true };
    }
    this.logger.info({ domainId, scanId, trigger }, 'scan queued');
    return { scanId, deduplicated: false };
  }

  /**
   * Scan Now (`manual`) and the blacklist re-check (`blacklist`, a full scan: the blacklist check is one
   * of its six). At most one per domain per cooldown on every plan; the claim is recorded by the same
   * statement that checks it.
   */
  async request(user: AuthUser, domainId: number, trigger: Extract<ScanTrigger, 'manual' | 'blacklist'>): Promise<ScanDomainAnswer> {
    const domains = new DomainRepository(this.db);
    const claim = await domains.claimManualScan(user.id, domainId, MANUAL_SCAN_COOLDOWN_MS);
    if (claim.kind === 'missing') throw notFound(DOMAIN_NOT_FOUND);
    if (claim.kind === 'paused') throw planLimit(scanPausedMessage(domainLimit(user.planType)));
    if (claim.kind === 'cooling') {
      const refusal = cooldownRefusal(claim.retryAfterMs);
      throw rateLimited(refusal.message, refusal.retryAfterSeconds);
    }

    const newScanId = await createScan(this.db, domainId, trigger);
    let queued: { scanId: string; deduplicated: boolean };
    try {
      queued = await this.enqueue(newScanId, domainId, trigger);
    } catch (err) {
      this.logger.error({ err, domainId, scanId: newScanId }, 'could not queue scan');
      // The refused attempt must not cost the user their next five minutes.
      await domains.releaseManualScan(domainId, claim.claimedAt);
      throw upstreamUnavailable(SCAN_QUEUE_UNAVAILABLE, err);
    }
    const row = await new ScanRepository(this.db).findById(queued.scanId);
    return {
      scanId: queued.scanId,
      domainId,
      status: scanStatusSchema.catch('queued').parse(row?.status ?? 'queued'),
      message: trigger === 'blacklist' ? BLACKLIST_CHECK_STARTED_MESSAGE : SCAN_STARTED_MESSAGE,
    };
  }

  /** One scan's progress, for the web app to follow a scan it started. */
  async status(user: AuthUser, domainId: number, scanId: string): Promise<Scan> {
    const row = await new ScanRepository(this.db).findOwned(user.id, scanId, domainId);
    if (!row) throw notFound(SCAN_NOT_FOUND);
    return toScanDto(row);
  }
}
