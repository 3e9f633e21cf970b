import { scanDomainJob } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { UnrecoverableError } from 'bullmq';
import { DnsServerError, DnsTimeoutError } from '../dns/types.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import type { ScanOutcome } from '../scan/run-scan.js';
import type { ScanRecorder } from '../scan/scan-recorder.js';
import { isFinalAttempt, type JobHandler } from './job-handler.js';
import type { ScanMetrics } from './scan-metrics.js';

/** Runs one scan of a domain (runScan with a fresh resolver, in production). */
export type ScanFn = (domain: string, dkimSelectors: string[]) => Promise<ScanOutcome>;

export interface ScanDomainHandlerDeps {
  db: Database;
  recorder: ScanRecorder;
  scan: ScanFn;
  metrics: ScanMetrics;
}

/** The selectors the user saved on the domain (`metadata.dkimSelectors`), ignoring anything malformed. */
export function dkimSelectorsOf(metadata: unknown): string[] {
  const raw = (metadata as { dkimSelectors?: unknown } | null)?.dkimSelectors;
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string' && s.length > 0) : [];
}

/** The reason stored on a failed scan: safe to show, never a stack or an internal address. */
export function safeScanError(error: unknown): string {
  if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return 'DNS did not answer for this domain; the scan will run again later.';
  if (error instanceof UnrecoverableError) return 'The scan request was invalid and was not run.';
  return 'The scan could not be completed; it will run again later.';
}

export function scanDomainHandler({ db, recorder, scan, metrics }: ScanDomainHandlerDeps): JobHandler {
  return async (job, log) => {
    const parsed = scanDomainJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid scan-domain payload: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
    const { scanId, domainId } = parsed.data;

    const target = await new ScanRepository(db).findTarget(scanId);
    if (!target || target.domainId !== domainId) {
      log.warn({ scanId, domainId }, 'scan row missing (domain purged?): skipped');
      return { skipped: 'missing-scan' };
    }
    if (target.isDeleted) {
      await recorder.markFailed(scanId, 'The domain was deleted before the scan ran.');
      log.info({ scanId, domainId }, 'domain deleted: scan skipped');
      return { skipped: 'deleted-domain' };
    }
    if (target.scanStatus === 'completed') {
      log.info({ scanId, domainId }, 'scan already completed: skipped');
      return { skipped: 'already-completed' };
    }

    await recorder.markRunning(scanId);
    try {
      const outcome = await scan(target.domainName, dkimSelectorsOf(target.metadata));
      metrics.scanDuration.observe(outcome.durationMs / 1000);
      metrics.dnsQueriesPerScan.observe(outcome.dnsQueries);
      const result = await recorder.record(scanId, outcome);
      if (!result.written) {
        log.info({ scanId, domainId, reason: result.reason }, 'scan not written');
        return { skipped: result.reason };
      }
      metrics.scansCompleted.inc({ status: outcome.status });
      log.info({ scanId, domainId, status: outcome.status, score: result.score, alerts: result.alertIds.length, ms: outcome.durationMs }, 'scan completed');
      return { status: outcome.status, score: result.score, alerts: result.alertIds.length };
    } catch (error) {
      const final = isFinalAttempt(job) || error instanceof UnrecoverableError;
      metrics.scansFailed.inc({ final: String(final) });
      if (final) await recorder.markFailed(scanId, safeScanError(error));
      throw error;
    }
  };
}
