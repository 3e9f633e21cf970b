import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportDomain } from '../src/addresses/report-domain.repository.js';
import { ReportDomainRepository } from '../src/addresses/report-domain.repository.js';
import { ReportRefusal } from '../src/reports/refusal.js';
import type { DailyRecordRow } from '../src/storage/daily-rows.js';
import { ingestReportFile, type IngestFile } from '../src/storage/ingest-report-file.js';
import { startHarness, type Harness } from './fixtures.js';
import { aggregateXml, dayPeriod, daysAgo, manyRecords, manyRecordsTotal, type AggregateSpec } from './fixtures/reports/aggregate.js';
import { reportMessage } from './fixtures/reports/mail.js';
import { tlsReportJson } from './fixtures/reports/tls.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

async function newDomain(plan = 'standard', opts: { failureReports?: boolean } = {}): Promise<ReportDomain> {
  const user = await h.f.user(plan);
  const row = await h.f.domain({ userId: user.id, ...opts });
  const domain = await new ReportDomainRepository(h.db).findActive(row.id);
  if (!domain) throw new Error('no domain');
  return domain;
}

const file = (bytes: Uint8Array | string, contentType: string | null = 'application/xml'): IngestFile => ({
  bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
  contentType,
  channel: 'upload',
  messageId: null,
});

const yesterday = dayPeriod(daysAgo(1));
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

function report(domain: ReportDomain, over: Partial<AggregateSpec> = {}): string {
  return aggregateXml({
    domain: domain.name,
    ...yesterday,
    records: [
      { ip: '192.0.2.10', count: 12, envelopeFrom: domain.name, dkimResults: [{ domain: 'other.example', selector: 'x', result: 'pass' }, { domain: domain.name, selector: 's1', result: 'pass' }], spfResults: [{ domain: domain.name, result: 'pass' }] },
      { ip: '2001:db8::25', count: 3, dkim: 'fail', spf: 'fail', disposition: 'quarantine', reason: 'forwarded', dkimResults: [{ domain: 'lists.example.org', selector: 'k1', result: 'fail' }] },
    ],
    ...over,
  });
}

async function records(domainId: number) {
  // bigint arrives as text.
  const { rows } = await sql<Omit<DailyRecordRow, 'key' | 'messages'> & { messages: string }>`select day::text, host(source_ip) as source_ip, header_from, envelope_from, spf_domain, spf_result, dkim_domain, dkim_selector, dkim_result,
       spf_aligned, dkim_aligned, disposition, override, messages from dmarc_records_daily where domain_id = ${domainId} order by source_ip, day`.execute(h.db);
  return rows;
}

async function totalMessages(domainId: number): Promise<number> {
  const { rows } = await sql<{ total: string | null }>`select sum(messages)::text as total from dmarc_records_daily where domain_id = ${domainId}`.execute(h.db);
  return Number(rows[0]?.total ?? 0);
}

async function reportsOf(domainId: number) {
  return h.db.selectFrom('mailReports').selectAll().where('domainId', '=', domainId).orderBy('id').execute();
}

async function refusalOf(run: Promise<unknown>): Promise<ReportRefusal> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ReportRefusal)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('ingestReportFile: aggregate reports', () => {
  it('stores a raw XML report: the report, its source, records per day and dimensions, the source addresses', async () => {
    const domain = await newDomain();
    const xml = report(domain);
    const answer = await ingestReportFile(h.db, domain, file(xml));
    expect(answer).toEqual({ accepted: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'r1', records: 2 }], duplicates: [] });

    const [stored] = await reportsOf(domain.id);
    expect(stored).toMatchObject({ kind: 'aggregate', orgName: 'google.com', orgEmail: 'noreply-dmarc-support@google.com', reportId: 'r1', records: 2, messages: '15', channel: 'upload', messageId: null });
    expect((stored?.policy as { domain: string; p: string }).p).toBe('none');
    const source = await h.db.selectFrom('mailReportSources').selectAll().where('reportId', '=', stored!.id).executeTakeFirstOrThrow();
    expect(source.contentType).toBe('application/xml');
    expect(gunzipSync(source.sourceGz).toString()).toBe(xml);

    const day = dayOf(yesterday.begin);
    expect(await records(domain.id)).toEqual([
      {
        day,
        sourceIp: '192.0.2.10',
        headerFrom: domain.name,
        envelopeFrom: domain.name,
        spfDomain: domain.name,
        spfResult: 'pass',
        // The aligned pass wins over the first pass.
        dkimDomain: domain.name,
        dkimSelector: 's1',
        dkimResult: 'pass',
        spfAligned: true,
        dkimAligned: true,
        disposition: 'none',
        override: '',
        messages: '12',
      },
      {
        day,
        sourceIp: '2001:db8::25',
        headerFrom: domain.name,
        envelopeFrom: '',
        spfDomain: '',
        spfResult: '',
        dkimDomain: 'lists.example.org',
        dkimSelector: 'k1',
        dkimResult: 'fail',
        spfAligned: false,
        dkimAligned: false,
        disposition: 'quarantine',
        override: 'forwarded',
        messages: '3',
      },
    ]);
    const ips = await sql<{ ip: string }>`select host(ip) as ip from mail_sources where ip in ('192.0.2.10', '2001:db8::25') order by ip`.execute(h.db);
    expect(ips.rows.map((r) => r.ip)).toEqual(['192.0.2.10', '2001:db8::25']);
  });

  it('reads gzip, zip and a MIME message with attachments', async () => {
    const domain = await newDomain();
    const gz = gzipSync(report(domain, { reportId: 'gz' }));
    const zip = zipSync({ 'google.com!x!1!2.xml': Buffer.from(report(domain, { reportId: 'zip' })) });
    const mail = reportMessage([
      { type: 'application/gzip', name: 'google.com!x.xml.gz', bytes: gzipSync(report(domain, { reportId: 'mail-a' })) },
      { type: 'application/zip', name: 'google.com!y.zip', bytes: zipSync({ 'y.xml': Buffer.from(report(domain, { reportId: 'mail-b' })) }) },
    ]);
    await ingestReportFile(h.db, domain, file(gz, 'application/gzip'));
    await ingestReportFile(h.db, domain, file(zip, 'application/zip'));
    const answer = await ingestReportFile(h.db, domain, { ...file(mail, 'message/rfc822'), channel: 'smtp' });
    expect(answer.accepted.map((a) => a.reportId)).toEqual(['mail-a', 'mail-b']);
    expect((await reportsOf(domain.id)).map((r) => r.reportId)).toEqual(['gz', 'zip', 'mail-a', 'mail-b']);
    expect(await totalMessages(domain.id)).toBe(4 * 15);
  });

  it('stores the same report once: the second time it is a duplicate and no count changes', async () => {
    const domain = await newDomain();
    await ingestReportFile(h.db, domain, file(report(domain)));
    const again = await ingestReportFile(h.db, domain, file(gzipSync(report(domain)), 'application/gzip'));
    expect(again).toEqual({ accepted: [], duplicates: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'r1' }] });
    expect(await reportsOf(domain.id)).toHaveLength(1);
    expect(await totalMessages(domain.id)).toBe(15);
  });

  it('sums two reports that count the same day and dimensions', async () => {
    const domain = await newDomain();
    await ingestReportFile(h.db, domain, file(report(domain, { orgName: 'google.com', reportId: 'a' })));
    await ingestReportFile(h.db, domain, file(report(domain, { orgName: 'yahoo.com', reportId: 'a' })));
    const rows = await records(domain.id);
    expect(rows.map((r) => [r.sourceIp, r.messages])).toEqual([
      ['192.0.2.10', '24'],
      ['2001:db8::25', '6'],
    ]);
  });

  it('files a report under the UTC day of its period midpoint', async () => {
    const domain = await newDomain();
    const begin = new Date(`${dayOf(daysAgo(3))}T20:00:00Z`);
    const end = new Date(begin.getTime() + 24 * 3_600_000); // midpoint 08:00 the next day
    await ingestReportFile(h.db, domain, file(report(domain, { begin, end })));
    expect(new Set((await records(domain.id)).map((r) => r.day))).toEqual(new Set([dayOf(daysAgo(2))]));
  });

  it('stores a report of 1,500 distinct rows (several batches) with exact sums', async () => {
    const domain = await newDomain();
    const n = 1_500;
    const answer = await ingestReportFile(h.db, domain, file(gzipSync(aggregateXml({ domain: domain.name, ...yesterday, records: manyRecords(n, 1_200) })), 'application/gzip'));
    expect(answer.accepted[0]?.records).toBe(n);
    expect(await totalMessages(domain.id)).toBe(manyRecordsTotal(n));
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from dmarc_records_daily where domain_id = ${domain.id}`.execute(h.db);
    // The address (i % 1,200) decides the other dimensions (i % 2, % 4, % 5): 1,200 rows, three statements.
    expect(Number(rows[0]?.n)).toBe(1_200);
  });

  it('refuses a report about another domain, and stores nothing of the file', async () => {
    const domain = await newDomain();
    const mail = reportMessage([
      { type: 'application/gzip', name: 'a.xml.gz', bytes: gzipSync(report(domain, { reportId: 'ok' })) },
      { type: 'application/gzip', name: 'b.xml.gz', bytes: gzipSync(report(domain, { reportId: 'other', domain: 'evil.example' })) },
    ]);
    const refused = await refusalOf(ingestReportFile(h.db, domain, file(mail, null)));
    expect(refused.code).toBe('POLICY_DOMAIN_MISMATCH');
    expect(refused.message).toContain('evil.example');
    expect(await reportsOf(domain.id)).toHaveLength(0);
    expect(await totalMessages(domain.id)).toBe(0);
  });

  it('accepts a report about a subdomain', async () => {
    const domain = await newDomain();
    const answer = await ingestReportFile(h.db, domain, file(report(domain, { domain: `mail.${domain.name}` })));
    expect(answer.accepted).toHaveLength(1);
  });

  it('refuses a report older than the plan keeps (basic: 90 days), and one from the future', async () => {
    const basic = await newDomain('basic');
    const old = await refusalOf(ingestReportFile(h.db, basic, file(report(basic, dayPeriod(daysAgo(95))))));
    expect(old.code).toBe('REPORT_TOO_OLD');
    expect(old.message).toContain('90 days');
    const advanced = await newDomain('advanced');
    expect((await ingestReportFile(h.db, advanced, file(report(advanced, dayPeriod(daysAgo(95)))))).accepted).toHaveLength(1);
    const future = await refusalOf(ingestReportFile(h.db, basic, file(report(basic, dayPeriod(daysAgo(-4))))));
    expect(future.code).toBe('REPORT_IN_FUTURE');
    expect(await reportsOf(basic.id)).toHaveLength(0);
  });

  it('refuses every file on a plan without mail flow', async () => {
    const domain = await newDomain('free');
    expect((await refusalOf(ingestReportFile(h.db, domain, file(report(domain))))).code).toBe('PLAN_WITHOUT_MAIL_FLOW');
  });

  it('refuses a gzip bomb and a file with nothing readable, storing nothing', async () => {
    const domain = await newDomain();
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect((await refusalOf(ingestReportFile(h.db, domain, file(bomb, 'application/gzip')))).code).toBe('COMPRESSION_RATIO');
    const inMail = reportMessage([{ type: 'application/gzip', name: 'x.xml.gz', bytes: bomb }]);
    expect((await refusalOf(ingestReportFile(h.db, domain, file(inMail, null)))).code).toBe('COMPRESSION_RATIO');
    expect((await refusalOf(ingestReportFile(h.db, domain, file('hello', 'text/plain')))).code).toBe('NO_REPORT_FOUND');
    const plain = reportMessage([{ type: 'text/html', name: 'x.html', bytes: Buffer.from('<html></html>') }]);
    expect((await refusalOf(ingestReportFile(h.db, domain, file(plain, null)))).code).toBe('NO_REPORT_FOUND');
    expect(await reportsOf(domain.id)).toHaveLength(0);
  });
});

describe('ingestReportFile: TLS reports', () => {
  const tls = (domain: ReportDomain, reportId = 'tls-1') =>
    tlsReportJson({
      reportId,
      ...yesterday,
      policies: [
        {
          domain: domain.name,
          successful: 5326,
          failures: [
            { resultType: 'certificate-expired', mx: `mx1.${domain.name}`, count: 100 },
            { resultType: 'starttls-not-supported', mx: `mx2.${domain.name}`, count: 200 },
            { resultType: 'certificate-expired', mx: `mx1.${domain.name}`, count: 1 },
            { resultType: 'validation-failure', count: 3 },
          ],
        },
        { domain: 'someone-else.example', successful: 99 },
      ],
    });

  async function tlsRows(domainId: number) {
    const { rows } = await sql<{ day: string; policyType: string; policyDomain: string; mxHost: string; resultType: string; sessions: string }>`
      select day::text, policy_type, policy_domain, mx_host, result_type, sessions from tls_results_daily where domain_id = ${domainId} order by result_type, mx_host`.execute(h.db);
    return rows;
  }

  it('stores JSON, gzip and a mail attachment, with sessions per policy, MX and result type', async () => {
    const domain = await newDomain();
    const json = tls(domain, 'a');
    const answer = await ingestReportFile(h.db, domain, { ...file(json, 'application/tlsrpt+json'), channel: 'https' });
    expect(answer).toEqual({ accepted: [{ kind: 'tls', reporter: 'Company-X', reportId: 'a', records: 1 }], duplicates: [] });
    await ingestReportFile(h.db, domain, { ...file(gzipSync(tls(domain, 'b')), 'application/tlsrpt+gzip'), channel: 'https' });
    const mail = reportMessage([{ type: 'application/tlsrpt+gzip', name: 'company-x.example!x!1!2!b.json.gz', bytes: gzipSync(tls(domain, 'c')) }], {
      contentType: 'multipart/report; report-type="tlsrpt"',
    });
    expect((await ingestReportFile(h.db, domain, { ...file(mail, null), channel: 'smtp' })).accepted.map((a) => a.reportId)).toEqual(['c']);

    const day = dayOf(yesterday.begin);
    const base = { day, policyType: 'sts', policyDomain: domain.name };
    expect(await tlsRows(domain.id)).toEqual([
      { ...base, mxHost: `mx1.${domain.name}`, resultType: 'certificate-expired', sessions: String(3 * 101) },
      { ...base, mxHost: `mx2.${domain.name}`, resultType: 'starttls-not-supported', sessions: String(3 * 200) },
      { ...base, mxHost: '', resultType: 'success', sessions: String(3 * 5326) },
      { ...base, mxHost: '', resultType: 'validation-failure', sessions: String(3 * 3) },
    ]);
    const reports = await reportsOf(domain.id);
    expect(reports.map((r) => [r.kind, r.messages])).toEqual([
      ['tls', String(5326 + 304)],
      ['tls', String(5326 + 304)],
      ['tls', String(5326 + 304)],
    ]);
    const source = await h.db.selectFrom('mailReportSources').selectAll().where('reportId', '=', reports[0]!.id).executeTakeFirstOrThrow();
    expect(source.contentType).toBe('application/json');
    expect(gunzipSync(source.sourceGz).toString()).toBe(json);
  });

  it('stores a TLS report once', async () => {
    const domain = await newDomain();
    await ingestReportFile(h.db, domain, file(tls(domain), 'application/tlsrpt+json'));
    const again = await ingestReportFile(h.db, domain, file(tls(domain), 'application/tlsrpt+json'));
    expect(again.duplicates).toEqual([{ kind: 'tls', reporter: 'Company-X', reportId: 'tls-1' }]);
    const { rows } = await sql<{ total: string }>`select sum(sessions)::text as total from tls_results_daily where domain_id = ${domain.id}`.execute(h.db);
    expect(rows[0]?.total).toBe(String(5326 + 304));
  });

  it('refuses a TLS report about no policy of the domain', async () => {
    const domain = await newDomain();
    const other = tlsReportJson({ ...yesterday, policies: [{ domain: 'someone-else.example', successful: 1 }] });
    expect((await refusalOf(ingestReportFile(h.db, domain, file(other, 'application/tlsrpt+json')))).code).toBe('POLICY_DOMAIN_MISMATCH');
    expect(await reportsOf(domain.id)).toHaveLength(0);
  });
});

describe('ingestReportFile: failure reports', () => {
  const arf = (name: string) => readFileSync(new URL('./fixtures/failure/dmarc-arf-rfc822.eml', import.meta.url), 'utf8').replace('Reported-Domain: Example.com', `Reported-Domain: ${name}`);

  it('stores a failure report (redacted) only when the owner turned them on', async () => {
    const on = await newDomain('standard', { failureReports: true });
    expect(await ingestReportFile(h.db, on, { ...file(arf(on.name), null), channel: 'smtp' })).toEqual({ accepted: [], duplicates: [] });
    const stored = await h.db.selectFrom('dmarcFailureReports').selectAll().where('domainId', '=', on.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ sourceIp: '203.0.113.7', authFailure: 'dmarc' });
    expect(JSON.stringify(stored[0]?.report)).not.toContain('alice.sender@');

    const off = await newDomain('standard');
    expect(await ingestReportFile(h.db, off, { ...file(arf(off.name), null), channel: 'smtp' })).toEqual({ accepted: [], duplicates: [] });
    expect(await h.db.selectFrom('dmarcFailureReports').selectAll().where('domainId', '=', off.id).execute()).toHaveLength(0);
  });

  it('reads the plain-text format too', async () => {
    const on = await newDomain('standard', { failureReports: true });
    const plain = readFileSync(new URL('./fixtures/failure/opendmarc-plain-text.eml', import.meta.url), 'utf8');
    const domainLine = /Sender Domain: (\S+)/.exec(plain)?.[1] ?? '';
    await ingestReportFile(h.db, on, { ...file(plain.replaceAll(domainLine, on.name), null), channel: 'smtp' });
    expect(await h.db.selectFrom('dmarcFailureReports').selectAll().where('domainId', '=', on.id).execute()).toHaveLength(1);
  });
});

describe('partitions', () => {
  it('creates a missing month partition once when two ingests need it at the same time', async () => {
    const [a, b] = [await newDomain('advanced'), await newDomain('advanced')];
    const period = dayPeriod(daysAgo(300));
    const month = dayOf(new Date((period.begin.getTime() + period.end.getTime()) / 2)).slice(0, 7).replace('-', '_');
    const answers = await Promise.all([ingestReportFile(h.db, a, file(report(a, period))), ingestReportFile(h.db, b, file(report(b, period)))]);
    expect(answers.map((x) => x.accepted.length)).toEqual([1, 1]);
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'dmarc_records_daily'::regclass and c.relname = ${`dmarc_records_daily_${month}`}`.execute(h.db);
    expect(rows).toHaveLength(1);
    expect(await totalMessages(a.id)).toBe(15);
    expect(await totalMessages(b.id)).toBe(15);
  });
});
