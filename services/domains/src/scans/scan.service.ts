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
import type { ScanEngine } from '@sendwell/scan-engine';
import { notFound, planLimit, rateLimited, upstreamUnavailable, type AuthUser, type Logger } from '@sendwell/server-kit';
import { ScanRepository } from './scan.repository.js';
import { toScanDto } from './scan.mapper.js';
import { cooldownRefusal } from '../domains/domain-rules.js';

const UNQUEUED_ERROR = 'The scan could not be queued; please try again.';

/** Scans asked for by users (Scan Now, the blacklist re-check, a new domain's first scan) and their progress. */
export class ScanService {
  constructor(
    private readonly db: Database,
    /** The one scan-request path, shared with the scanner's sweeper. */
    readonly engine: ScanEngine,
    private readonly logger: Logger,
  ) {}

  /** Queues the job of an existing `queued` scan row (see ScanEngine.enqueue). */
  enqueue(scanId: string, domainId: number, trigger: ScanTrigger): Promise<{ scanId: string; deduplicated: boolean }> {
    return this.engine.enqueue(scanId, domainId, trigger, UNQUEUED_ERROR);
  }

  /**
   * Scan Now (`manual`) and the blacklist re-check (`blacklist`, a full scan: the blacklist check is one
   * of its six). At most one per domain per cooldown on every plan; the claim is recorded by the same
   * statement that checks it.
   */
  async request(user: AuthUser, domainId: number, trigger: Extract<ScanTrigger, 'manual' | 'blacklist'>): Promise<ScanDomainAnswer> {
    let outcome;
    try {
      outcome = await this.engine.requestManual(user.id, domainId, trigger, MANUAL_SCAN_COOLDOWN_MS, UNQUEUED_ERROR);
    } catch (err) {
      this.logger.error({ err, domainId }, 'could not queue scan');
      throw upstreamUnavailable(SCAN_QUEUE_UNAVAILABLE, err);
    }
    if (outcome.kind === 'missing') throw notFound(DOMAIN_NOT_FOUND);
    if (outcome.kind === 'paused') throw planLimit(scanPausedMessage(domainLimit(user.planType)));
    if (outcome.kind === 'cooling') {
      const refusal = cooldownRefusal(outcome.retryAfterMs);
      throw rateLimited(refusal.message, refusal.retryAfterSeconds);
    }
    const row = await new ScanRepository(this.db).findById(outcome.scanId);
    return {
      scanId: outcome.scanId,
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
