import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import { MaintenanceRepository } from './maintenance.repository.js';
import { SampleDomainRepository } from '../quick-check/sample-domain.repository.js';

/** A quick-check domain nobody has viewed for this long is deleted with its checks. */
export const SAMPLE_DOMAIN_RETENTION_DAYS = 30;
/** Rows per delete statement: small enough that no batch holds its locks for long. */
export const CLEAN_UP_BATCH = 1_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CleanUpCounts {
  sessions: number;
  passwordResetTokens: number;
  sampleDomains: number;
}

/**
 * The nightly clean-up (the `nightly-clean-up` maintenance job): deletes rows that have outlived
 * their use, so the tables the public routes fill (quick check, login, forgot password) stop growing
 * without bound. Email-verification tokens are columns of `users`, not rows: nothing to delete.
 */
export class CleanUpService {
  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly batch = CLEAN_UP_BATCH,
  ) {}

  async run(now = new Date()): Promise<CleanUpCounts> {
    const maintenance = new MaintenanceRepository(this.db);
    const counts: CleanUpCounts = {
      sessions: await maintenance.purgeSessions(now, this.batch),
      passwordResetTokens: await maintenance.purgePasswordResetTokens(now, this.batch),
      sampleDomains: await new SampleDomainRepository(this.db).purgeNotViewedSince(new Date(now.getTime() - SAMPLE_DOMAIN_RETENTION_DAYS * DAY_MS), this.batch),
    };
    this.logger.info(counts, 'nightly clean-up done');
    return counts;
  }
}
