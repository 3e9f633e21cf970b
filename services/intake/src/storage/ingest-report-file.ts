import { isIP } from 'node:net';
import { features, MAIL_FLOW_PLAN_MESSAGE, mailFlowRetentionDays, type UploadReportsAnswer } from '@sendwell/contracts';
import type { Database, Transaction, DB } from '@sendwell/db';
import { sql } from 'kysely';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import type { IntakeChannel } from '../intake/intake-message.repository.js';
import { assertPolicyDomain } from '../reports/aggregate/assert-policy-domain.js';
import type { AggregateHeader } from '../reports/aggregate/types.js';
import { assertFailureDomain } from '../reports/failure/assert-failure-domain.js';
import { refuse } from '../reports/refusal.js';
import { sharedReportReader, type ReportReaderPool } from '../reports/report-reader-pool.js';
import { assertTlsPolicyDomain } from '../reports/tls-rpt/assert-tls-policy-domain.js';
import { addTlsRows, concatJsonArrays, periodDay, policiesFor, tlsRowsJson, utcDay, type TlsDailyRow } from './daily-rows.js';
import { ensureMonthPartitions, forgetMonthPartitions, isMissingPartition } from './partitions.js';

const DAY_MS = 86_400_000;
/** A report may start up to this far ahead (a sender's clock, a period ending at midnight in its zone). */
const FUTURE_ALLOWANCE_MS = 2 * DAY_MS;

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

function reporterOf(report: AggregateHeader): string {
  return report.reporter.orgName ?? report.reporter.email ?? '';
}

/** Reports in one order, so two files holding the same reports cannot deadlock on the unique index. */
function byReporterAndId<T extends { report: unknown }>(items: T[], key: (report: T['report']) => string): T[] {
  return [...items].sort((a, b) => (key(a.report) < key(b.report) ? -1 : key(a.report) > key(b.report) ? 1 : 0));
}

/*
 * The daily tables are written from JSON arrays of rows (daily-rows.ts) through json_to_recordset:
 * one statement text whatever the number of rows, so it is prepared once per connection (multi-row
 * VALUES made a new text, and a new prepared statement, for every row count), and the rows never
 * become objects on this event loop. Rows are grouped, since several reports of one file may add to
 * the same row, and written in key order, which keeps two workers from deadlocking on each other.
 */

async function upsertRecordRows(trx: Transaction<DB>, domainId: number, rowsJson: Uint8Array, sourceIpsJson: Uint8Array): Promise<void> {
  await sql`insert into dmarc_records_daily (domain_id, day, key, source_ip, header_from, envelope_from, spf_domain, spf_result, dkim_domain, dkim_selector,
      dkim_result, spf_aligned, dkim_aligned, disposition, override, messages)
    select ${domainId}::integer, r.day, decode(r.key, 'hex'), r."sourceIp", r."headerFrom", r."envelopeFrom", r."spfDomain", r."spfResult", r."dkimDomain",
      r."dkimSelector", r."dkimResult", r."spfAligned", r."dkimAligned", r.disposition, r.override, sum(r.messages)
    from json_to_recordset(${rowsJson}::json) as r(day date, key text, "sourceIp" inet, "headerFrom" text, "envelopeFrom" text, "spfDomain" text,
      "spfResult" text, "dkimDomain" text, "dkimSelector" text, "dkimResult" text, "spfAligned" boolean, "dkimAligned" boolean, disposition text,
      override text, messages bigint)
    group by r.day, r.key, r."sourceIp", r."headerFrom", r."envelopeFrom", r."spfDomain", r."spfResult", r."dkimDomain", r."dkimSelector",
      r."dkimResult", r."spfAligned", r."dkimAligned", r.disposition, r.override
    order by r.day, r.key
    on conflict (domain_id, day, key) do update set messages = dmarc_records_daily.messages + excluded.messages`.execute(trx);
  // Every source address gets a row for the namer (another job names it later).
  await sql`insert into mail_sources (ip)
    select distinct ip::inet from json_array_elements_text(${sourceIpsJson}::json) as a(ip) order by 1
    on conflict (ip) do nothing`.execute(trx);
}

async function upsertTlsRows(trx: Transaction<DB>, domainId: number, rowsJson: Uint8Array): Promise<void> {
  await sql`insert into tls_results_daily (domain_id, day, policy_type, policy_domain, mx_host, result_type, sessions)
    select ${domainId}::integer, r.day, r."policyType", r."policyDomain", r."mxHost", r."resultType", r.sessions
    from json_to_recordset(${rowsJson}::json) as r(day date, "policyType" text, "policyDomain" text, "mxHost" text, "resultType" text, sessions bigint)
    order by r.day, r."policyType", r."policyDomain", r."mxHost", r."resultType"
    on conflict (domain_id, day, policy_type, policy_domain, mx_host, result_type) do update set sessions = tls_results_daily.sessions + excluded.sessions`.execute(trx);
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

  const aggregate = byReporterAndId(content.aggregate, (r) => `${reporterOf(r)}\u0000${r.reportId}`);
  const tls = byReporterAndId(content.tls, (r) => `${r.organization}\u0000${r.reportId}`);
  const storesFailure = content.failure !== null && domain.failureReports;
  await ensureMonthPartitions(db, [
    ...aggregate.map(({ report }) => periodDay(report.period.begin, report.period.end)),
    ...tls.map(({ report }) => periodDay(report.period.start, report.period.end)),
    ...(storesFailure ? [utcDay(now)] : []),
  ]);

  const base = { domainId: domain.id, channel: file.channel, messageId: file.messageId };
  try {
    return await db.transaction().execute(async (trx) => {
      const answer: UploadReportsAnswer = { accepted: [], duplicates: [] };
      const recordRows: Uint8Array[] = [];
      const sourceIps: Uint8Array[] = [];
      for (const { report, records, messages, rowsJson, sourceIpsJson, sourceGz } of aggregate) {
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
            records,
            messages,
          })
          .onConflict((oc) => oc.columns(['domainId', 'kind', 'orgName', 'reportId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          answer.duplicates.push({ kind: 'aggregate', reporter, reportId: report.reportId });
          continue;
        }
        await trx.insertInto('mailReportSources').values({ reportId: inserted.id, contentType: 'application/xml', sourceGz }).execute();
        recordRows.push(rowsJson);
        sourceIps.push(sourceIpsJson);
        answer.accepted.push({ kind: 'aggregate', reporter, reportId: report.reportId, records });
      }
      if (recordRows.length > 0) await upsertRecordRows(trx, domain.id, concatJsonArrays(recordRows), concatJsonArrays(sourceIps));

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
      if (tlsRows.size > 0) await upsertTlsRows(trx, domain.id, tlsRowsJson(tlsRows));

      // Failure reports carry (redacted) personal data: kept only where the owner turned them on.
      if (content.failure && storesFailure) {
        const failure = content.failure;
        await trx
          .insertInto('dmarcFailureReports')
          .values({
            domainId: domain.id,
            // The month made ready above, rather than the database's clock, which may already be in the next.
            receivedAt: now,
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
