import { JobName, type SampleDomainAnswer } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { AppError, rateLimited, upstreamUnavailable, type Logger, type Queues } from '@sendwell/server-kit';
import type { FixedWindowRepository } from '../shared/fixed-window.repository.js';
import { toSampleDomainAnswer } from './sample-domain.mapper.js';
import { SampleDomainRepository, type SampleDomainRow } from './sample-domain.repository.js';

/** Quick-check results are reused this long (issue 4), then refreshed in the background. */
export const SAMPLE_RESULTS_FRESH_MS = 24 * 60 * 60 * 1000;

export const SCAN_QUEUE_UNAVAILABLE = 'The quick check is unavailable right now. Please try again later.';

/** The cap on new sample domains counts in windows of this length. */
export const NEW_SAMPLE_WINDOW_MS = 60_000;

export function newSampleDomainsLimitMessage(retryAfterSeconds: number): string {
  return `Too many new domains are being checked right now. Please try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;
}

/** A view is recorded at most this often per domain, so a popular domain costs no write per request. */
export const VIEW_RECORD_INTERVAL_MS = 60 * 60 * 1000;

/** BullMQ ids cannot contain ':'. */
export const sampleScanDedupId = (sampleDomainId: number) => `sample-${sampleDomainId}`;

export interface SampleDomainServiceOptions {
  /** New sample domains accepted per minute across every process (SAMPLE_DOMAINS_PER_MINUTE). */
  newPerMinute: number;
  freshForMs?: number;
  now?: () => Date;
}

/**
 * The public quick check (part 2 §2.9). The first request for a domain creates its row and queues a
 * real scan, answering pending with no checks; later requests answer the stored checks. Results
 * older than `freshForMs` are still answered (stale-while-revalidate) while a fresh scan is queued,
 * so a visitor never waits on a scan they already have results for.
 *
 * One scan per domain at a time: jobs carry `deduplication: { id: sample-<id> }`, which BullMQ
 * holds while the job waits or runs and releases when it finishes (a fixed jobId would be kept by
 * `removeOnComplete` for an hour and could block the next day's refresh). A scan that failed for
 * good leaves the row pending, and the next visitor's request queues it again.
 *
 * New domains are capped per minute across every process (the gateway's limit is per client, and
 * many clients could still create rows and scans without end); known domains are never counted.
 * Each view is recorded (at most hourly) in `lastViewedAt`, which the nightly clean-up reads.
 */
export class SampleDomainService {
  private readonly samples: SampleDomainRepository;
  private readonly freshForMs: number;
  private readonly now: () => Date;

  private readonly newPerMinute: number;

  constructor(
    db: Database,
    private readonly queues: Pick<Queues, 'add'>,
    /** The shared Redis counter behind the cap on new domains (one count for every process). */
    private readonly windows: Pick<FixedWindowRepository, 'hit'>,
    private readonly logger: Logger,
    options: SampleDomainServiceOptions,
  ) {
    this.samples = new SampleDomainRepository(db);
    this.newPerMinute = options.newPerMinute;
    this.freshForMs = options.freshForMs ?? SAMPLE_RESULTS_FRESH_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** `name` is already trimmed, lower-cased and validated by the contracts' domain schema. */
  async get(name: string): Promise<SampleDomainAnswer> {
    const known = await this.samples.findByName(name);
    if (known) await this.recordView(known);
    else await this.admitNewDomain();
    const row = known ?? (await this.samples.findOrCreate(name)).row;
    if (this.needsScan(row)) await this.queueScan(row);
    const checks = row.lastScan ? await this.samples.checks(row.id) : [];
    return toSampleDomainAnswer(row, checks);
  }

  /**
   * Counts a new domain against the cap shared by every process before its row exists, so a refused
   * request creates nothing. Concurrent first requests for one name may each count: the cap errs on
   * the safe side. Without Redis no scan could be queued either, hence the same 503.
   */
  private async admitNewDomain(): Promise<void> {
    const hit = await this.windows.hit('sample-domains-new', 'all', NEW_SAMPLE_WINDOW_MS).catch((error: unknown) => {
      throw error instanceof AppError ? error : upstreamUnavailable(SCAN_QUEUE_UNAVAILABLE, error);
    });
    if (hit.count <= this.newPerMinute) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
    // Once per window, not per refused request: a flood must not flood the log as well.
    if (hit.count === this.newPerMinute + 1) this.logger.warn({ limit: this.newPerMinute }, 'new sample domains capped for this minute');
    throw rateLimited(newSampleDomainsLimitMessage(retryAfterSeconds), retryAfterSeconds);
  }

  /** Keeps a viewed domain from the nightly purge of sample domains nobody looks at. */
  private async recordView(row: SampleDomainRow): Promise<void> {
    const now = this.now();
    if (now.getTime() - row.lastViewedAt.getTime() < VIEW_RECORD_INTERVAL_MS) return;
    await this.samples.markViewed(row.id, now);
  }

  private needsScan(row: SampleDomainRow): boolean {
    return !row.lastScan || this.now().getTime() - row.lastScan.getTime() > this.freshForMs;
  }

  private async queueScan(row: SampleDomainRow): Promise<void> {
    const refresh = row.lastScan !== null;
    if (row.lastScan && !(await this.samples.claimRefresh(row.id, row.lastScan, this.now()))) return;
    try {
      const job = await this.queues.add(JobName.ScanSampleDomain, { sampleDomainId: row.id }, { deduplication: { id: sampleScanDedupId(row.id) } });
      this.logger.info({ sampleDomainId: row.id, jobId: job.id, refresh }, 'sample domain scan queued');
    } catch (error) {
      // Stale results are still worth answering; the next visitor's request tries the refresh again.
      this.logger.error({ err: error, sampleDomainId: row.id, refresh }, 'sample domain scan could not be queued');
      if (!refresh) throw upstreamUnavailable(SCAN_QUEUE_UNAVAILABLE, error);
    }
  }
}
