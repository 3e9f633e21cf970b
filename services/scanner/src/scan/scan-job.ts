import { JobName, scanDomainJob, scanJobOptions, type ScanTrigger } from '@sendwell/contracts';

export { scanDedupId, scanJobOptions } from '@sendwell/contracts';

/** A `scan-domain` job ready for `addBulk`, with the shared deduplication options. */
export function scanJob(scanId: string, domainId: number, trigger: ScanTrigger) {
  return { name: JobName.ScanDomain, data: scanDomainJob.parse({ scanId, domainId, trigger }), opts: scanJobOptions(scanId, domainId) };
}
