import { JobName, type SampleDomainAnswer } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { upstreamUnavailable, type Logger, type Queues } from '@sendwell/server-kit';
import { toSampleDomainAnswer } from '../mappers/sample-domain.mapper.js';
import { SampleDomainRepository, type SampleDomainRow } from '../repositories/sample-domain.repository.js';

/** Quick-check results are reused this long (issue 4), then refreshed in the background. */
export const SAMPLE_RESULTS_FRESH_MS = 24 * 60 * 60 * 1000;

export const SCAN_QUEUE_UNAVAILABLE = 'The quick check is unavailable right now. Please try again later.';

/** BullMQ ids cannot contain ':'. */
export const sampleScanDedupId = (sampleDomainId: number) => `sample-${sampleDomainId}`;

export interface SampleDomainServiceOptions {
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
 */
export class SampleDomainService {
  private readonly samples: SampleDomainRepository;
  private readonly freshForMs: number;
  private readonly now: () => Date;

  constructor(
    db: Database,
    private readonly queues: Pick<Queues, 'add'>,
    private readonly logger: Logger,
    options: SampleDomainServiceOptions = {},
  ) {
    this.samples = new SampleDomainRepository(db);
    this.freshForMs = options.freshForMs ?? SAMPLE_RESULTS_FRESH_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** `name` is already trimmed, lower-cased and validated by the contracts' domain schema. */
  async get(name: string): Promise<SampleDomainAnswer> {
    const row = (await this.samples.findByName(name)) ?? (await this.samples.findOrCreate(name)).row;
    if (this.needsScan(row)) await this.queueScan(row);
    const checks = row.lastScan ? await this.samples.checks(row.id) : [];
    return toSampleDomainAnswer(row, checks);
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
