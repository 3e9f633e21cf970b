import { JobName, scanDomainJob, type ScanTrigger } from '@sendwell/contracts';
import type { JobsOptions } from 'bullmq';

/**
 * Options of a `scan-domain` job. The job id is the scan id (a retried `add` of the same scan is a
 * no-op), and `deduplication.id` is derived from the domain, so a domain with a scan waiting or
 * running is not queued again. Deduplication rather than a `scan-${domainId}` job id because BullMQ
 * keeps finished jobs for a while (`removeOnComplete: { age: 3600 }`), and a kept job id would block
 * the next scheduled scan of an advanced domain (every 15 minutes) for that hour; the deduplication
 * key is released as soon as the job finishes. `add` returns the pending job's id when deduplicated,
 * which tells the caller its new scan row is not needed.
 */
export function scanJobOptions(scanId: string, domainId: number): JobsOptions {
  return { jobId: scanId, deduplication: { id: scanDedupId(domainId) } };
}

/** BullMQ ids cannot contain ':'. */
export function scanDedupId(domainId: number): string {
  return `scan-${domainId}`;
}

export function scanJob(scanId: string, domainId: number, trigger: ScanTrigger) {
  return { name: JobName.ScanDomain, data: scanDomainJob.parse({ scanId, domainId, trigger }), opts: scanJobOptions(scanId, domainId) };
}
