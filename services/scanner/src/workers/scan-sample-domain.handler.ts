import { isCoreCheckType, type JobName } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { JobHandler } from '@sendwell/server-kit';
import { SampleDomainRepository } from '../repositories/sample-domain.repository.js';
import type { ScanFn } from './scan-domain.handler.js';

/**
 * Scans a public quick-check domain and replaces its checks, in one transaction. Replacing (not
 * appending) is what makes a retried job harmless: the quick check only ever shows the latest scan.
 */
export function scanSampleDomainHandler({ db, scan }: { db: Database; scan: ScanFn }): JobHandler<typeof JobName.ScanSampleDomain> {
  return async ({ sampleDomainId }, _job, log) => {

    const sample = await new SampleDomainRepository(db).find(sampleDomainId);
    if (!sample) {
      log.warn({ sampleDomainId }, 'sample domain missing: skipped');
      return { skipped: 'missing-sample-domain' };
    }
    // The quick check shows the six core checks: an anonymous visitor's domain gets no MX probes.
    const outcome = await scan(sample.name, [], { coreOnly: true });
    const written = await db.transaction().execute(async (trx) => {
      const repo = new SampleDomainRepository(trx);
      if (!(await repo.lock(sampleDomainId))) return false;
      const at = new Date();
      await repo.replaceChecks(sampleDomainId, Object.values(outcome.checks).filter((check) => isCoreCheckType(check.type)), at);
      await repo.recordScan(sampleDomainId, outcome.status, at);
      return true;
    });
    log.info({ sampleDomainId, status: outcome.status, written }, 'sample domain scanned');
    return { status: outcome.status, written };
  };
}
