import { features } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { queueSenderRequirementsRefresh } from '@sendwell/scan-engine';
import type { Logger, Queues } from '@sendwell/server-kit';
import type { ReportDomainRepository } from '../addresses/report-domain.repository.js';
import type { IntakeMessageRepository } from '../intake/intake-message.repository.js';
import { ReportRefusal } from '../reports/refusal.js';
import type { ReportReaderPool } from '../reports/report-reader-pool.js';
import { ingestReportFile } from '../storage/ingest-report-file.js';

/**
 * Claims beyond this many mean the message keeps killing its worker (memory, a crash in a parser):
 * it is refused instead of being read again by every sweep.
 */
export const MAX_READ_CLAIMS = 5;

export type ReadIntakeResult = { state: 'read' | 'refused'; outcome: unknown } | { state: 'skipped' };

export interface ReadIntakeDeps {
  db: Database;
  messages: IntakeMessageRepository;
  reportDomains: ReportDomainRepository;
  logger: Logger;
  reportReader: ReportReaderPool;
  queues: Queues;
}


/**
 * Reads one stored message into the report tables. Exactly once: claim() counts the attempt and
 * returns nothing once the message is read, and the reports are stored in one transaction keyed by
 * report, so a worker killed anywhere (before or after its commit) leaves either nothing or the whole
 * file, and the next read finds duplicates instead of adding again.
 *
 * A ReportRefusal is final (the same bytes would be refused again). Any other error is rethrown for
 * BullMQ to retry, except on the job's last attempt, when the message is refused as READ_FAILED so the
 * sweep does not queue it forever.
 */
export async function readIntakeMessage(deps: ReadIntakeDeps, messageId: number, opts: { lastAttempt: boolean }): Promise<ReadIntakeResult> {
  const message = await deps.messages.claim(messageId);
  if (!message) return { state: 'skipped' };
  const finish = async (state: 'read' | 'refused', outcome: unknown): Promise<ReadIntakeResult> => {
    await deps.messages.finish(message.id, state, outcome);
    return { state, outcome };
  };
  if (message.attempts > MAX_READ_CLAIMS) {
    return finish('refused', { code: 'READ_FAILED', message: `The message could not be read in ${MAX_READ_CLAIMS} attempts.` });
  }
  const domain = message.domainId === null ? undefined : await deps.reportDomains.findActive(message.domainId);
  if (!domain) return finish('refused', { code: 'DOMAIN_GONE', message: 'The domain the report was sent for no longer exists.' });

  try {
    const answer = await ingestReportFile(deps.db, domain, { bytes: message.raw, contentType: message.contentType, channel: message.channel, messageId: message.id }, undefined, deps.reportReader);
    // New aggregate records change the mail-flow evidence of the domain's sender requirements.
    if (answer.accepted.some((a) => a.kind === 'aggregate') && features.senderRequirements(domain.planType)) {
      await queueSenderRequirementsRefresh(deps.queues, domain.id, deps.logger);
    }
    return await finish('read', answer);
  } catch (error) {
    if (error instanceof ReportRefusal) return finish('refused', { code: error.code, message: error.message });
    if (opts.lastAttempt) {
      deps.logger.error({ err: error, messageId }, 'intake message could not be read; refused after the last attempt');
      await deps.messages.finish(message.id, 'refused', { code: 'READ_FAILED', message: 'The message could not be read.' });
    }
    throw error;
  }
}
