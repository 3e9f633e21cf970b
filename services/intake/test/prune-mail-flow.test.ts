import { gzipSync } from 'node:zlib';
import { MAX_MAIL_FLOW_RETENTION_DAYS } from '@sendwell/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDomain } from '../src/addresses/report-domain.repository.js';
import { ReportDomainRepository } from '../src/addresses/report-domain.repository.js';
import { ingestReportFile } from '../src/storage/ingest-report-file.js';
import { ensureMonthPartitions, partitionName, type MonthlyTable } from '../src/storage/partitions.js';
import { pruneMailFlow } from '../src/storage/prune-mail-flow.js';
import { startHarness, type Harness } from './fixtures.js';
import { aggregateXml, dayPeriod, daysAgo } from './fixtures/reports/aggregate.js';
import { tlsReportJson } from './fixtures/reports/tls.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const now = new Date();
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

async function newDomain(plan: string): Promise<ReportDomain> {
  const user = await h.f.user(plan);
  const row = await h.f.domain({ userId: user.id, failureReports: true });
  return (await new ReportDomainRepository(h.db).findActive(row.id))!;
}

/** An aggregate and a TLS report of `ago` days ago, ingested as if on that day. */
async function reportsOf(domain: ReportDomain, ago: number): Promise<void> {
  const at = daysAgo(ago, now);
  const period = dayPeriod(at);
  const xml = aggregateXml({ domain: domain.name, reportId: `agg-${ago}`, ...period, records: [{ ip: '192.0.2.1', count: 5 }] });
  await ingestReportFile(h.db, domain, { bytes: Buffer.from(xml), contentType: 'application/xml', channel: 'upload', messageId: null }, at);
  const json = tlsReportJson({ reportId: `tls-${ago}`, ...period, policies: [{ domain: domain.name, successful: 7 }] });
  await ingestReportFile(h.db, domain, { bytes: gzipSync(json), contentType: 'application/tlsrpt+gzip', channel: 'https', messageId: null }, at);
  await h.db.insertInto('dmarcFailureReports').values({ domainId: domain.id, receivedAt: at, report: '{}' }).execute();
}

async function daysLeft(domainId: number) {
  const records = await sql<{ day: string }>`select day::text from dmarc_records_daily where domain_id = ${domainId} order by day`.execute(h.db);
  const tls = await sql<{ day: string }>`select day::text from tls_results_daily where domain_id = ${domainId} order by day`.execute(h.db);
  const failures = await h.db.selectFrom('dmarcFailureReports').select('id').where('domainId', '=', domainId).execute();
  const reports = await h.db.selectFrom('mailReports').select('reportId').where('domainId', '=', domainId).orderBy('reportId').execute();
  return { records: records.rows.map((r) => r.day), tls: tls.rows.map((r) => r.day), failures: failures.length, reports: reports.map((r) => r.reportId) };
}

const MONTHLY: MonthlyTable[] = ['dmarc_records_daily', 'tls_results_daily', 'dmarc_failure_reports'];

async function partitions(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent in ('dmarc_records_daily'::regclass, 'tls_results_daily'::regclass, 'dmarc_failure_reports'::regclass) order by 1`.execute(h.db);
  return rows.map((r) => r.name);
}

/** The month's partition of each of the three tables. */
const monthOf = (month: string) => MONTHLY.map((table) => partitionName(table, month)).sort();

describe('pruneMailFlow', () => {
  it('keeps each domain its plan retention (basic 90 days, advanced 395), nothing on a plan without mail flow, drops old partitions, makes the next ones', async () => {
    const basic = await newDomain('basic');
    const advanced = await newDomain('advanced');
    const lapsed = await newDomain('advanced');
    for (const ago of [100, 10]) {
      await reportsOf(basic, ago);
      await reportsOf(lapsed, ago);
    }
    for (const ago of [300, 100]) await reportsOf(advanced, ago);
    await h.db.updateTable('users').set({ planType: 'free' }).where('id', '=', lapsed.userId).execute();
    // A month past the longest retention, still holding a row.
    const ancient = dayOf(daysAgo(MAX_MAIL_FLOW_RETENTION_DAYS + 40, now));
    await ensureMonthPartitions(h.db, [ancient]);
    await sql`insert into dmarc_records_daily (day, domain_id, key, source_ip, header_from, envelope_from, spf_domain, spf_result, dkim_domain, dkim_selector, dkim_result, spf_aligned, dkim_aligned, disposition, override, messages)
      values (${ancient}, 999999, '\\x00', '192.0.2.9', '', '', '', '', '', '', 'none', false, false, '', '', 1)`.execute(h.db);
    await sql`insert into tls_results_daily (day, domain_id, policy_type, policy_domain, mx_host, result_type, sessions)
      values (${ancient}, ${advanced.id}, 'sts', ${advanced.name}, '', 'success', 3)`.execute(h.db);
    await h.db.insertInto('dmarcFailureReports').values({ domainId: advanced.id, receivedAt: new Date(`${ancient}T12:00:00Z`), report: '{}' }).execute();

    const result = await pruneMailFlow(h.db, now);

    const ten = dayOf(dayPeriod(daysAgo(10, now)).begin);
    expect(await daysLeft(basic.id)).toEqual({ records: [ten], tls: [ten], failures: 1, reports: ['agg-10', 'tls-10'] });
    const d300 = dayOf(dayPeriod(daysAgo(300, now)).begin);
    const d100 = dayOf(dayPeriod(daysAgo(100, now)).begin);
    expect(await daysLeft(advanced.id)).toEqual({ records: [d300, d100], tls: [d300, d100], failures: 2, reports: ['agg-100', 'agg-300', 'tls-100', 'tls-300'] });
    expect(await daysLeft(lapsed.id)).toEqual({ records: [], tls: [], failures: 0, reports: [] });
    expect(result).toMatchObject({ records: 3, tlsResults: 3, failureReports: 3, reports: 6 });

    // The ancient month goes whole from the three tables, its rows with it (no row deletes counted above).
    expect(result.droppedPartitions).toEqual(expect.arrayContaining(monthOf(ancient.slice(0, 7))));
    const left = await partitions();
    for (const name of monthOf(ancient.slice(0, 7))) expect(left).not.toContain(name);
    for (const ahead of [0, 1, 2]) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1)).toISOString().slice(0, 7);
      expect(left).toEqual(expect.arrayContaining(monthOf(month)));
    }
    // The advanced domain's oldest month (300 days ago) is within the longest retention: kept.
    expect(left).toEqual(expect.arrayContaining(monthOf(d300.slice(0, 7))));
  });

  it('deletes report files and read or refused messages past the source retention, keeps unread ones', async () => {
    const domain = await newDomain('advanced');
    await reportsOf(domain, 1);
    const sources = await h.db.selectFrom('mailReportSources as s').innerJoin('mailReports as r', 'r.id', 's.reportId').select('s.reportId').where('r.domainId', '=', domain.id).orderBy('s.reportId').execute();
    expect(sources).toHaveLength(2);
    await h.db.updateTable('mailReportSources').set({ createdAt: daysAgo(15, now) }).where('reportId', '=', sources[0]!.reportId).execute();

    const store = () => h.deps.messages.store({ domainId: domain.id, channel: 'smtp', envelope: {}, contentType: null, raw: Buffer.from('x') });
    const [read, refused, unread, recent] = [await store(), await store(), await store(), await store()];
    await h.deps.messages.finish(read, 'read', {});
    await h.deps.messages.finish(refused, 'refused', {});
    await h.deps.messages.finish(recent, 'read', {});
    await h.db.updateTable('intakeMessages').set({ receivedAt: daysAgo(15, now) }).where('id', 'in', [read, refused, unread].map(String)).execute();

    await pruneMailFlow(h.db, now);
    const left = await h.db.selectFrom('mailReportSources').select('reportId').where('reportId', 'in', sources.map((s) => s.reportId)).execute();
    expect(left.map((s) => s.reportId)).toEqual([sources[1]!.reportId]);
    const messages = await h.db.selectFrom('intakeMessages').select('id').where('id', 'in', [read, refused, unread, recent].map(String)).orderBy('id').execute();
    expect(messages.map((m) => Number(m.id))).toEqual([unread, recent]);
    // The report itself stays (its plan keeps it); only its file went.
    expect((await daysLeft(domain.id)).reports).toHaveLength(2);
  });
});
