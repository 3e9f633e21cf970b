import { JobName } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { ScanEngine } from '@sendwell/scan-engine';
import { SystemCounter, SystemDistinct, type JobHandler, type SystemCounters } from '@sendwell/server-kit';
import { UnrecoverableError, type Job } from 'bullmq';
import type { ReportedSelector } from '../checks/dkim/selectors.js';
import { DnsServerError, DnsTimeoutError } from '../dns/types.js';
import { MailFlowRepository } from '../repositories/mail-flow.repository.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import type { ScanOutcome } from '../scan/run-scan.js';
import { recordScan } from '../scan/record-scan.js';
import type { ScanMetrics } from './scan-metrics.js';

/** What a scan knows of the domain's row besides its name and saved selectors. */
export interface ScanFnOptions {
  coreOnly?: boolean;
  /** domains.report_token: DMARC recommendations suggest the domain's own report address. */
  reportToken?: string;
  /** DKIM selectors the domain's DMARC reports saw signing, probed besides the saved and common ones. */
  reportedDkimSelectors?: ReportedSelector[];
}

/** Runs one scan of a domain (runScan with a fresh resolver, in production). */
export type ScanFn = (domain: string, dkimSelectors: string[], options?: ScanFnOptions) => Promise<ScanOutcome>;

export interface ScanDomainHandlerDeps {
  db: Database;
  engine: ScanEngine;
  scan: ScanFn;
  metrics: ScanMetrics;
  /** The administrator's running figures (scans completed, their seconds, domains scanned today); deps.ts always gives them. */
  counters?: SystemCounters;
}

/** The selectors the user saved on the domain (`metadata.dkimSelectors`), ignoring anything malformed. */
export function dkimSelectorsOf(metadata: unknown): string[] {
  const raw = (metadata as { dkimSelectors?: unknown } | null)?.dkimSelectors;
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string' && s.length > 0) : [];
}

const STALLED_TOO_OFTEN = /stalled more than allowable limit/;
export const SCAN_INTERRUPTED_TOO_OFTEN = 'The scan was interrupted too often (its worker stopped while running it); it will run again later.';

/** The reason stored on a failed scan: safe to show, never a stack or an internal address. */
export function safeScanError(error: unknown): string {
  if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return 'DNS did not answer for this domain; the scan will run again later.';
  // BullMQ fails a job that stalled more than maxStalledCount times as unrecoverable: not a bad request
  // but workers that died (killed, out of memory) while running it.
  if (error instanceof Error && STALLED_TOO_OFTEN.test(error.message)) return SCAN_INTERRUPTED_TOO_OFTEN;
  if (error instanceof UnrecoverableError) return 'The scan request was invalid and was not run.';
  return 'The scan could not be completed; it will run again later.';
}

/** True when this attempt is the job's last: a failure now is final. */
function isFinalAttempt(job: Job, error: unknown): boolean {
  return error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * Runs one scan. A failure is only counted here: the worker's final-failure hook (`failScan`) is the one
 * place a scan that failed for good is written, whether it threw here or its worker died under it.
 */
export function scanDomainHandler({ db, engine, scan, metrics, counters }: ScanDomainHandlerDeps): JobHandler<typeof JobName.ScanDomain> {
  return async ({ scanId, domainId }, job, log) => {

    const target = await new ScanRepository(db).findTarget(scanId);
    if (!target || target.domainId !== domainId) {
      log.warn({ scanId, domainId }, 'scan row missing (domain purged?): skipped');
      return { skipped: 'missing-scan' };
    }
    if (target.isDeleted) {
      await engine.recorder.markFailed(scanId, 'The domain was deleted before the scan ran.');
      log.info({ scanId, domainId }, 'domain deleted: scan skipped');
      return { skipped: 'deleted-domain' };
    }
    if (target.scanStatus === 'completed') {
      log.info({ scanId, domainId }, 'scan already completed: skipped');
      return { skipped: 'already-completed' };
    }

    await engine.recorder.markRunning(scanId);
    try {
      const reportedDkimSelectors = await new MailFlowRepository(db).reportedDkimSelectors(domainId, target.domainName);
      const outcome = await scan(target.domainName, dkimSelectorsOf(target.metadata), { reportToken: target.reportToken, reportedDkimSelectors });
      metrics.scanDuration.observe(outcome.durationMs / 1000);
      metrics.dnsQueriesPerScan.observe(outcome.dnsQueries);
      const result = await recordScan(engine.recorder, scanId, outcome);
      if (!result.written) {
        log.info({ scanId, domainId, reason: result.reason }, 'scan not written');
        return { skipped: result.reason };
      }
      metrics.scansCompleted.inc({ status: outcome.status });
      // The scan's transaction committed: count it for the administrator (best effort, never throws).
      await counters?.record(
        { [SystemCounter.ScansCompleted]: 1, [SystemCounter.ScanSeconds]: outcome.durationMs / 1000 },
        { [SystemDistinct.DomainsScanned]: domainId },
      );
      await engine.publishAlertEvents(result.alertIds, result.resolvedAlertIds, log);
      await engine.refreshSenderRequirements(domainId, log);
      log.info(
        { scanId, domainId, status: outcome.status, score: result.score, alerts: result.alertIds.length, resolved: result.resolvedAlertIds.length, ms: outcome.durationMs },
        'scan completed',
      );
      return { status: outcome.status, score: result.score, alerts: result.alertIds.length };
    } catch (error) {
      metrics.scansFailed.inc({ final: String(isFinalAttempt(job, error)) });
      throw error;
    }
  };
}

/**
 * The final-failure hook of the scan worker: a `scan-domain` job failed for good fails its scan, with a
 * safe reason, and counts it among the administrator's failed scans once that is written.
 */
export function failScan(recorder: ScanEngine['recorder'], counters?: SystemCounters): (job: Job, error: Error) => Promise<void> {
  return async (job, error) => {
    const scanId = (job.data as { scanId?: unknown } | undefined)?.scanId;
    if (job.name !== JobName.ScanDomain || typeof scanId !== 'string') return;
    await recorder.markFailed(scanId, safeScanError(error));
    await counters?.add(SystemCounter.ScansFailed);
  };
}
