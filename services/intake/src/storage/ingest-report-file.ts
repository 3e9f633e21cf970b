import { isIP } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { features, MAIL_FLOW_PLAN_MESSAGE, mailFlowRetentionDays, type UploadReportsAnswer } from '@sendwell/contracts';
import type { Database, Transaction, DB } from '@sendwell/db';
import { sql } from 'kysely';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import type { IntakeChannel } from '../intake/intake-message.repository.js';
import { assertPolicyDomain } from '../reports/aggregate/assert-policy-domain.js';
import type { AggregateReport } from '../reports/aggregate/types.js';
import { assertFailureDomain } from '../reports/failure/assert-failure-domain.js';
import type { ReadReport } from '../reports/read-report-content.js';
import { refuse } from '../reports/refusal.js';
import { sharedReportReader, type ReportReaderPool } from '../reports/report-reader-pool.js';
import { assertTlsPolicyDomain } from '../reports/tls-rpt/assert-tls-policy-domain.js';
import { addTlsRows, policiesFor, sortedRecordRows, sortedTlsRows, utcDay, periodDay, type DailyRecordRow, type TlsDailyRow } from './daily-rows.js';
import { ensureMonthPartitions, forgetMonthPartitions, isMissingPartition } from './partitions.js';

const gzipAsync = promisify(gzip);

const DAY_MS = 86_400_000;
/** A report may start up to this far ahead (a sender's clock, a period ending at midnight in its zone). */
const FUTURE_ALLOWANCE_MS = 2 * DAY_MS;
/** Rows per multi-row statement: well under Postgres' 65,535 parameters (16 a row). */
const BATCH_ROWS = 500;

export interface IngestFile {
  bytes: Uint8Array;
  contentType: string | null;
  channel: IntakeChannel;
  /** The intake message it came in, null for a direct upload. */
  messageId: number | null;
}

/** Refuses a period the plan would prune at once, or one that has not begun. */
function assertPeriod(begin: Date, end: Date, retentionDays: number, now: Date): void {
  if (end.getTime() < now.getTime() - retentionDays * DAY_MS) {
    refuse('REPORT_TOO_OLD', `The report covers ${utcDay(begin)} to ${utcDay(end)}, older than the ${retentionDays} days of mail flow the plan keeps, so it was not stored.`);
  }
  if (begin.getTime() > now.getTime() + FUTURE_ALLOWANCE_MS) {
    refuse('REPORT_IN_FUTURE', `The report's period begins ${utcDay(begin)}, in the future; check the sender's clock.`);
  }
}

function reporterOf(report: AggregateReport): string {
  return report.reporter.orgName ?? report.reporter.email ?? '';
}

/** Reports in one order, so two files holding the same reports cannot deadlock on the unique index. */
function byReporterAndId<T extends ReadReport<unknown>>(items: T[], key: (report: T['report']) => string): T[] {
  return [...items].sort((a, b) => (key(a.report) < key(b.report) ? -1 : key(a.report) > key(b.report) ? 1 : 0));
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

async function upsertRecordRows(trx: Transaction<DB>, domainId: number, rows: DailyRecordRow[]): Promise<void> {
  for (const batch of chunks(rows, BATCH_ROWS)) {
    await trx
      .insertInto('dmarcRecordsDaily')
      .values(batch.map((row) => ({ ...row, domainId })))
      .onConflict((oc) => oc.columns(['domainId', 'day', 'key']).doUpdateSet({ messages: sql`dmarc_records_daily.messages + excluded.messages` }))
      .execute();
  }
  // Every source address gets a row for the namer (another job names it later).
  const ips = [...new Set(rows.map((row) => row.sourceIp))].sort();
  for (const batch of chunks(ips, BATCH_ROWS)) {
    await trx
      .insertInto('mailSources')
      .values(batch.map((ip) => ({ ip })))
      .onConflict((oc) => oc.column('ip').doNothing())
      .execute();
  }
}

async function upsertTlsRows(trx: Transaction<DB>, domainId: number, rows: TlsDailyRow[]): Promise<void> {
  for (const batch of chunks(rows, BATCH_ROWS)) {
    await trx
      .insertInto('tlsResultsDaily')
      .values(batch.map((row) => ({ ...row, domainId })))
      .onConflict((oc) => oc.columns(['domainId', 'day', 'policyType', 'policyDomain', 'mxHost', 'resultType']).doUpdateSet({ sessions: sql`tls_results_daily.sessions + excluded.sessions` }))
      .execute();
  }
}

/**
 * Reads one received file or message and stores the reports in it, each exactly once: the whole file
 * goes in one transaction, and a report already stored (same domain, kind, reporter and report id) is
 * listed as a duplicate and adds nothing, so reading the same message again, after a crash between the
 * commit and marking it read, changes no count. Refuses (ReportRefusal) a file with nothing readable,
 * a report about another domain, a plan without mail flow, and a period outside the plan's window.
 * The file is read on one of `reader`'s threads (the service's own pool; a shared one when none is given).
 */
export async function ingestReportFile(db: Database, domain: ReportDomain, file: IngestFile, now = new Date(), reader: ReportReaderPool = sharedReportReader()): Promise<UploadReportsAnswer> {
  if (!features.mailFlow(domain.planType)) refuse('PLAN_WITHOUT_MAIL_FLOW', MAIL_FLOW_PLAN_MESSAGE);
  const retentionDays = mailFlowRetentionDays(domain.planType);
  const content = await reader.read(file.bytes, file.contentType);
  for (const { report } of content.aggregate) {
    assertPolicyDomain(report, domain.name);
    assertPeriod(report.period.begin, report.period.end, retentionDays, now);
  }
  for (const { report } of content.tls) {
    assertTlsPolicyDomain(report, domain.name);
    assertPeriod(report.period.start, report.period.end, retentionDays, now);
  }
  if (content.failure) assertFailureDomain(content.failure, domain.name);

  const aggregate = await Promise.all(byReporterAndId(content.aggregate, (r) => `${reporterOf(r)}\u0000${r.reportId}`).map(async (read) => ({ ...read, sourceGz: await gzipAsync(read.source) })));
  const tls = await Promise.all(byReporterAndId(content.tls, (r) => `${r.organization}\u0000${r.reportId}`).map(async (read) => ({ ...read, sourceGz: await gzipAsync(read.source) })));
  await ensureMonthPartitions(
    db,
    aggregate.map(({ report }) => periodDay(report.period.begin, report.period.end)),
  );

  const base = { domainId: domain.id, channel: file.channel, messageId: file.messageId };
  try {
    return await db.transaction().execute(async (trx) => {
      const answer: UploadReportsAnswer = { accepted: [], duplicates: [] };
      const recordRows = new Map<string, DailyRecordRow>();
      for (const { report, rows, sourceGz } of aggregate) {
        const reporter = reporterOf(report);
        const inserted = await trx
          .insertInto('mailReports')
          .values({
            ...base,
            kind: 'aggregate',
            orgName: reporter,
            orgEmail: report.reporter.email,
            reportId: report.reportId,
            periodBegin: report.period.begin,
            periodEnd: report.period.end,
            policy: JSON.stringify(report.policy),
            records: report.records.length,
            messages: report.records.reduce((sum, record) => sum + record.count, 0),
          })
          .onConflict((oc) => oc.columns(['domainId', 'kind', 'orgName', 'reportId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          answer.duplicates.push({ kind: 'aggregate', reporter, reportId: report.reportId });
          continue;
        }
        await trx.insertInto('mailReportSources').values({ reportId: inserted.id, contentType: 'application/xml', sourceGz }).execute();
        // Summed on the reader thread (addRecordRows); merged here as addRecordRows merges.
        for (const [id, row] of rows) {
          const existing = recordRows.get(id);
          if (existing) existing.messages += row.messages;
          else recordRows.set(id, { ...row });
        }
        answer.accepted.push({ kind: 'aggregate', reporter, reportId: report.reportId, records: report.records.length });
      }
      await upsertRecordRows(trx, domain.id, sortedRecordRows(recordRows));

      const tlsRows = new Map<string, TlsDailyRow>();
      for (const { report, sourceGz } of tls) {
        const policies = policiesFor(report, domain.name);
        const inserted = await trx
          .insertInto('mailReports')
          .values({
            ...base,
            kind: 'tls',
            orgName: report.organization,
            orgEmail: report.contact,
            reportId: report.reportId,
            periodBegin: report.period.start,
            periodEnd: report.period.end,
            policy: JSON.stringify({ policies: policies.map((p) => ({ type: p.type, domain: p.domain, strings: p.strings, mxHosts: p.mxHosts })) }),
            records: policies.length,
            messages: policies.reduce((sum, p) => sum + p.successful + p.failed, 0),
          })
          .onConflict((oc) => oc.columns(['domainId', 'kind', 'orgName', 'reportId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          answer.duplicates.push({ kind: 'tls', reporter: report.organization, reportId: report.reportId });
          continue;
        }
        await trx.insertInto('mailReportSources').values({ reportId: inserted.id, contentType: 'application/json', sourceGz }).execute();
        addTlsRows(tlsRows, report, domain.name);
        answer.accepted.push({ kind: 'tls', reporter: report.organization, reportId: report.reportId, records: policies.length });
      }
      await upsertTlsRows(trx, domain.id, sortedTlsRows(tlsRows));

      // Failure reports carry (redacted) personal data: kept only where the owner turned them on.
      if (content.failure && domain.failureReports) {
        const failure = content.failure;
        await trx
          .insertInto('dmarcFailureReports')
          .values({
            domainId: domain.id,
            arrivalDate: failure.arrivalDate,
            sourceIp: failure.sourceIp && isIP(failure.sourceIp) ? failure.sourceIp : null,
            authFailure: failure.authFailure,
            report: JSON.stringify(failure),
          })
          .execute();
      }
      return answer;
    });
  } catch (error) {
    if (isMissingPartition(error)) forgetMonthPartitions(db);
    throw error;
  }
}
