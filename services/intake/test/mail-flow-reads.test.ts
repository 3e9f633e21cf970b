import { gzipSync } from 'node:zlib';
import { DOMAIN_NOT_FOUND, MAIL_FLOW_PLAN_MESSAGE, type MailFlow, type MailSender } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { ResultStore } from '@sendwell/scan-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestReportFile } from '../src/storage/ingest-report-file.js';
import { startHarness, TEST_INTAKE_DOMAIN, type Harness } from './fixtures.js';

/** One <record> of an RFC 7489 aggregate report. */
interface Rec {
  ip: string;
  count: number;
  /** policy_evaluated: the aligned verdicts. */
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  reason?: string;
  dkimAuth?: { domain: string; selector: string; result: string };
  spfAuth?: { domain: string; result: string };
}

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const epoch = (day: string, end = false) => Math.floor(Date.parse(`${day}T${end ? '23:59:59' : '00:00:00'}Z`) / 1000);

/** An RFC 7489 aggregate report about `domain` for one UTC day. */
function aggregateXml(opts: { domain: string; org: string; reportId: string; day: string; p: string; testing?: boolean; records: Rec[] }): Buffer {
  const records = opts.records
    .map(
      (r) => `<record>
  <row><source_ip>${r.ip}</source_ip><count>${r.count}</count>
    <policy_evaluated><disposition>none</disposition><dkim>${r.dkim}</dkim><spf>${r.spf}</spf>${r.reason ? `<reason><type>${r.reason}</type></reason>` : ''}</policy_evaluated></row>
  <identifiers><header_from>${opts.domain}</header_from></identifiers>
  <auth_results>${r.dkimAuth ? `<dkim><domain>${r.dkimAuth.domain}</domain><selector>${r.dkimAuth.selector}</selector><result>${r.dkimAuth.result}</result></dkim>` : ''}
    <spf><domain>${r.spfAuth?.domain ?? opts.domain}</domain><scope>mfrom</scope><result>${r.spfAuth?.result ?? r.spf}</result></spf></auth_results>
</record>`,
    )
    .join('\n');
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<feedback><version>1.0</version>
<report_metadata><org_name>${opts.org}</org_name><email>dmarc@${opts.org}</email><report_id>${opts.reportId}</report_id>
  <date_range><begin>${epoch(opts.day)}</begin><end>${epoch(opts.day, true)}</end></date_range></report_metadata>
<policy_published><domain>${opts.domain}</domain><adkim>r</adkim><aspf>r</aspf><p>${opts.p}</p>${opts.testing ? '<testing>y</testing>' : ''}</policy_published>
${records}
</feedback>`);
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function ownedDomain(plan = 'standard', name?: string) {
  const user = await h.f.user(plan);
  const domain = await h.f.domain({ userId: user.id, ...(name ? { name } : {}) });
  return { user, domain, headers: await h.auth(user) };
}

async function ingest(userId: number, domainId: number, bytes: Buffer, contentType = 'application/xml') {
  const domain = await h.deps.reportDomains.findOwned(userId, domainId);
  if (!domain) throw new Error('no domain');
  return ingestReportFile(h.db, domain, { bytes, contentType, channel: 'smtp', messageId: null });
}

/** A completed scan whose DMARC and SPF checks read these records, as the scanner stores them. */
async function scanned(domainId: number, records: { dmarc?: string; spf?: string }) {
  const scan = await h.db.insertInto('scans').values({ domainId, trigger: 'manual', status: 'completed', completedAt: new Date() }).returning(['id', 'completedAt']).executeTakeFirstOrThrow();
  const checks = Object.entries(records).map(([type, record]) => ({
    type: type as 'dmarc' | 'spf',
    status: 'success' as const,
    value: record,
    message: null,
    recommendation: null,
    details: { record, source: 'domain', findings: [] },
  }));
  await new ResultStore(h.db).store({ scanId: scan.id, domainId, checks, snapshot: null, at: scan.completedAt!, previous: null });
}

/** What the source namer would have written for an address. */
async function named(ip: string, host: string | null, serviceId: string | null) {
  await sql`update mail_sources set host = ${host}, service_id = ${serviceId}, named_at = now() where ip = ${ip}::inet`.execute(h.db);
}

/** The four refusals every call makes, in its order: 401, 403 (plan), 404 (another user's), 400 (bad id). */
async function expectGuards(method: 'GET' | 'PUT' | 'POST', path: (id: number | string) => string, payload?: object) {
  const { domain } = await ownedDomain();
  const noAuth = await h.app.inject({ method, url: path(domain.id), ...(payload ? { payload } : {}) });
  expect(noAuth.statusCode).toBe(401);

  const free = await ownedDomain('free');
  const plan = await h.app.inject({ method, url: path(free.domain.id), headers: free.headers, ...(payload ? { payload } : {}) });
  expect(plan.statusCode).toBe(403);
  expect(plan.json().message).toBe(MAIL_FLOW_PLAN_MESSAGE);

  const other = await ownedDomain();
  const theirs = await h.app.inject({ method, url: path(domain.id), headers: other.headers, ...(payload ? { payload } : {}) });
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json().message).toBe(DOMAIN_NOT_FOUND);

  const bad = await h.app.inject({ method, url: path('abc'), headers: other.headers, ...(payload ? { payload } : {}) });
  expect(bad.statusCode).toBe(400);
}

describe('GET /api/domains/:id/report-addresses', () => {
  it('gives the addresses, the records with the present DMARC record merged, the setting and the first report', async () => {
    const { user, domain, headers } = await ownedDomain();
    await scanned(domain.id, { dmarc: 'v=DMARC1; p=none; rua=mailto:agg@other.example', spf: 'v=spf1 mx -all' });
    const url = `/api/domains/${domain.id}/report-addresses`;
    const before = await h.app.inject({ method: 'GET', url, headers });
    expect(before.statusCode).toBe(200);
    const token = domain.reportToken;
    expect(before.json()).toEqual({
      domain: domain.name,
      dmarcAddress: `${token}@${TEST_INTAKE_DOMAIN}`,
      tlsRptAddress: `tls-${token}@${TEST_INTAKE_DOMAIN}`,
      tlsRptUrl: `https://app.sendwell.test/api/intake/tls-rpt/${token}`,
      records: [
        {
          type: 'TXT',
          host: `_dmarc.${domain.name}`,
          value: `v=DMARC1; p=none; rua=mailto:agg@other.example,mailto:${token}@${TEST_INTAKE_DOMAIN}`,
          purpose: expect.any(String),
        },
        {
          type: 'TXT',
          host: `_smtp._tls.${domain.name}`,
          value: `v=TLSRPTv1; rua=mailto:tls-${token}@${TEST_INTAKE_DOMAIN},https://app.sendwell.test/api/intake/tls-rpt/${token}`,
          purpose: expect.any(String),
        },
      ],
      failureReports: false,
      firstReportAt: null,
    });

    await ingest(user.id, domain.id, aggregateXml({ domain: domain.name, org: 'google.com', reportId: 'r1', day: dayAgo(1), p: 'none', records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }] }));
    const { receivedAt } = await h.db.selectFrom('mailReports').select('receivedAt').where('domainId', '=', domain.id).executeTakeFirstOrThrow();
    const put = await h.app.inject({ method: 'PUT', url: `/api/domains/${domain.id}/mail-flow/settings`, headers, payload: { failureReports: true } });
    expect(put.statusCode).toBe(200);

    const after = (await h.app.inject({ method: 'GET', url, headers })).json();
    expect(after.firstReportAt).toBe(receivedAt.toISOString());
    expect(after.failureReports).toBe(true);
    expect(after.records[0].value).toBe(`v=DMARC1; p=none; rua=mailto:agg@other.example,mailto:${token}@${TEST_INTAKE_DOMAIN}; ruf=mailto:${token}@${TEST_INTAKE_DOMAIN}`);
  });

  it('suggests a record of its own without a scanned DMARC record', async () => {
    const { domain, headers } = await ownedDomain();
    const answer = (await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/report-addresses`, headers })).json();
    expect(answer.records[0].value).toBe(`v=DMARC1; p=none; rua=mailto:${domain.reportToken}@${TEST_INTAKE_DOMAIN}`);
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('GET', (id) => `/api/domains/${id}/report-addresses`);
  });
});

describe('PUT /api/domains/:id/mail-flow/settings', () => {
  it('turns failure reports on and off', async () => {
    const { domain, headers } = await ownedDomain();
    const url = `/api/domains/${domain.id}/mail-flow/settings`;
    const on = await h.app.inject({ method: 'PUT', url, headers, payload: { failureReports: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ failureReports: true });
    const off = await h.app.inject({ method: 'PUT', url, headers, payload: { failureReports: false } });
    expect(off.json()).toEqual({ failureReports: false });
    const row = await h.db.selectFrom('mailFlowSettings').selectAll().where('domainId', '=', domain.id).execute();
    expect(row).toHaveLength(1);
    expect(row[0]?.failureReports).toBe(false);
  });

  it('refuses a body that is not a boolean setting', async () => {
    const { domain, headers } = await ownedDomain();
    const url = `/api/domains/${domain.id}/mail-flow/settings`;
    for (const payload of [{ failureReports: 'yes' }, {}, { failureReports: true, extra: 1 }]) {
      const res = await h.app.inject({ method: 'PUT', url, headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('PUT', (id) => `/api/domains/${id}/mail-flow/settings`, { failureReports: true });
  });
});

describe('GET /api/domains/:id/mail-flow', () => {
  const ms365 = { ip: '192.0.2.10', host: 'mail-am6eur05.outbound.protection.outlook.com' };

  async function seedMixed() {
    const ctx = await ownedDomain('standard', `shop${Date.now()}.example`);
    const { user, domain } = ctx;
    await scanned(domain.id, { dmarc: 'v=DMARC1; p=none; rua=mailto:agg@other.example', spf: 'v=spf1 mx -all' });
    const d = domain.name;
    const day = (n: number, id: string, records: Rec[]) => ingest(user.id, domain.id, aggregateXml({ domain: d, org: 'google.com', reportId: id, day: dayAgo(n), p: 'none', records }));
    // Microsoft 365 (named by the namer): mostly aligned, some mail neither signed with nor sent from the domain.
    await day(3, 'a3', [
      { ip: ms365.ip, count: 60, dkim: 'pass', spf: 'pass', dkimAuth: { domain: d, selector: 'selector1', result: 'pass' } },
      { ip: '192.0.2.11', count: 10, dkim: 'fail', spf: 'fail', dkimAuth: { domain: `${d.replaceAll('.', '-')}.onmicrosoft.com`, selector: 'selector2', result: 'fail' } },
      // A spoofer: no signature, SPF fails.
      { ip: '203.0.113.5', count: 40, dkim: 'fail', spf: 'fail' },
    ]);
    await day(2, 'a2', [
      { ip: ms365.ip, count: 30, dkim: 'pass', spf: 'pass', dkimAuth: { domain: d, selector: 'selector1', result: 'pass' } },
      // A mailing list, as the reporter saw it.
      { ip: '198.51.100.7', count: 20, dkim: 'fail', spf: 'fail', reason: 'mailing_list', spfAuth: { domain: 'lists.example.org', result: 'pass' } },
    ]);
    await day(1, 'a1', [{ ip: '198.51.100.8', count: 5, dkim: 'fail', spf: 'fail', reason: 'forwarded' }]);
    await named(ms365.ip, ms365.host, 'microsoft-365');
    await named('192.0.2.11', null, 'microsoft-365');
    await named('198.51.100.7', 'mx1.lists.example.org', null);
    await named('198.51.100.8', 'mx2.lists.example.org', null);
    return ctx;
  }

  it('sums the window, fills every day and groups, classifies and fixes the senders', async () => {
    const { domain, headers } = await seedMixed();
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow`, headers });
    expect(res.statusCode).toBe(200);
    const flow = res.json() as MailFlow;
    const d = domain.name;
    const dashed = d.replaceAll('.', '-');

    expect(flow.to).toBe(today());
    expect(flow.from).toBe(dayAgo(29));
    expect(flow.retentionDays).toBe(180);
    expect({ messages: flow.messages, dmarcPass: flow.dmarcPass, dmarcFail: flow.dmarcFail, forwarded: flow.forwarded, reports: flow.reports }).toEqual({
      messages: 165,
      dmarcPass: 90,
      dmarcFail: 50,
      forwarded: 25,
      reports: 3,
    });
    expect(flow.daily).toHaveLength(30);
    expect(flow.daily[0]).toEqual({ day: dayAgo(29), pass: 0, fail: 0 });
    expect(flow.daily.slice(-4)).toEqual([
      { day: dayAgo(3), pass: 60, fail: 50 },
      { day: dayAgo(2), pass: 30, fail: 0 },
      { day: dayAgo(1), pass: 0, fail: 0 },
      { day: today(), pass: 0, fail: 0 },
    ]);

    expect(flow.senders.map((s) => [s.id, s.category, s.messages])).toEqual([
      ['service:microsoft-365', 'authorised', 100],
      ['ip:203.0.113.5', 'unknown', 40],
      ['host:example.org', 'forwarded', 25],
    ]);
    const [microsoft, spoofer, list] = flow.senders as [MailSender, MailSender, MailSender];
    expect(microsoft).toEqual({
      id: 'service:microsoft-365',
      name: 'Microsoft 365',
      serviceId: 'microsoft-365',
      category: 'authorised',
      addresses: [
        { ip: ms365.ip, host: ms365.host, messages: 90 },
        { ip: '192.0.2.11', host: null, messages: 10 },
      ],
      addressCount: 2,
      messages: 100,
      spfAligned: 0.9,
      dkimAligned: 0.9,
      dmarcPass: 0.9,
      dkimSelectors: ['selector1', 'selector2'],
      fixes: [
        {
          kind: 'spf',
          text: `Add include:spf.protection.outlook.com to the SPF record of ${d} so Microsoft 365's servers are authorised to send for it.`,
          record: 'v=spf1 mx include:spf.protection.outlook.com -all',
        },
        {
          kind: 'dkim',
          text: expect.stringContaining('Microsoft Defender portal'),
          record: [
            `selector1._domainkey.${d} CNAME selector1-${dashed}._domainkey.<tenant>.onmicrosoft.com`,
            `selector2._domainkey.${d} CNAME selector2-${dashed}._domainkey.<tenant>.onmicrosoft.com`,
          ].join('\n'),
        },
      ],
    });
    expect(spoofer).toMatchObject({ name: '203.0.113.5', serviceId: null, spfAligned: 0, dkimAligned: 0, dmarcPass: 0, dkimSelectors: [], fixes: [], addressCount: 1 });
    expect(list).toMatchObject({
      name: 'example.org',
      addressCount: 2,
      addresses: [
        { ip: '198.51.100.7', host: 'mx1.lists.example.org', messages: 20 },
        { ip: '198.51.100.8', host: 'mx2.lists.example.org', messages: 5 },
      ],
      dmarcPass: 0,
      fixes: [],
    });

    // Authorised mail: Microsoft's 100, of which 10 fail; reports on 3 days.
    expect(flow.readiness).toEqual({
      currentPolicy: 'none',
      testing: false,
      nextPolicy: 'quarantine',
      legitimateMessages: 100,
      affectedMessages: 10,
      affectedShare: 0.1,
      ready: false,
      blockers: [
        'Reports cover 3 days of this window; at least 7 are needed to judge the next step.',
        '10 of 100 messages from authorised senders (10.00%) fail DMARC and would be quarantined at p=quarantine: fix Microsoft 365 first.',
      ],
      record: null,
    });
  });

  it('counts only the asked days', async () => {
    const { domain, headers } = await seedMixed();
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow?from=${dayAgo(2)}&to=${dayAgo(1)}`, headers });
    const flow = res.json() as MailFlow;
    expect({ from: flow.from, to: flow.to, messages: flow.messages, dmarcPass: flow.dmarcPass, dmarcFail: flow.dmarcFail, forwarded: flow.forwarded, reports: flow.reports }).toEqual({
      from: dayAgo(2),
      to: dayAgo(1),
      messages: 55,
      dmarcPass: 30,
      dmarcFail: 0,
      forwarded: 25,
      reports: 2,
    });
    expect(flow.daily).toEqual([
      { day: dayAgo(2), pass: 30, fail: 0 },
      { day: dayAgo(1), pass: 0, fail: 0 },
    ]);
  });

  it('is ready for the next step after a week of clean authorised mail, with the exact record', async () => {
    const { user, domain, headers } = await ownedDomain();
    await scanned(domain.id, { dmarc: 'v=DMARC1; p=none; rua=mailto:agg@other.example; adkim=r' });
    for (let n = 7; n >= 1; n--) {
      const records: Rec[] = [{ ip: '192.0.2.20', count: 200, dkim: 'pass', spf: 'pass' }];
      if (n === 7) records.push({ ip: '192.0.2.20', count: 1, dkim: 'fail', spf: 'fail' }, { ip: '203.0.113.9', count: 500, dkim: 'fail', spf: 'fail' });
      await ingest(user.id, domain.id, aggregateXml({ domain: domain.name, org: 'yahoo.com', reportId: `y${n}`, day: dayAgo(n), p: 'none', records }));
    }
    const flow = (await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow`, headers })).json() as MailFlow;
    expect(flow.readiness).toEqual({
      currentPolicy: 'none',
      testing: false,
      nextPolicy: 'quarantine',
      legitimateMessages: 1401,
      affectedMessages: 1,
      affectedShare: 0.0007,
      ready: true,
      blockers: [],
      record: `v=DMARC1; p=quarantine; rua=mailto:agg@other.example,mailto:${domain.reportToken}@${TEST_INTAKE_DOMAIN}; adkim=r`,
    });
    // The spoofer's failures do not hold the domain back; a nearly clean sender gets no fixes.
    expect(flow.senders.map((s) => [s.id, s.category, s.fixes.length])).toEqual([
      ['ip:192.0.2.20', 'authorised', 0],
      ['ip:203.0.113.9', 'unknown', 0],
    ]);
  });

  it('takes the policy from the newest report: t=y at quarantine steps to quarantine itself', async () => {
    const { user, domain, headers } = await ownedDomain();
    await scanned(domain.id, { dmarc: 'v=DMARC1; p=quarantine; t=y; rua=mailto:agg@other.example' });
    for (let n = 8; n >= 1; n--) {
      await ingest(user.id, domain.id, aggregateXml({ domain: domain.name, org: 'yahoo.com', reportId: `t${n}`, day: dayAgo(n), p: n === 8 ? 'none' : 'quarantine', testing: n < 8, records: [{ ip: '192.0.2.30', count: 10, dkim: 'pass', spf: 'fail' }] }));
    }
    const flow = (await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow`, headers })).json() as MailFlow;
    expect(flow.readiness).toMatchObject({ currentPolicy: 'quarantine', testing: true, nextPolicy: 'quarantine', ready: true, blockers: [] });
    expect(flow.readiness.record).toBe(`v=DMARC1; p=quarantine; rua=mailto:agg@other.example,mailto:${domain.reportToken}@${TEST_INTAKE_DOMAIN}`);
  });

  it('has nothing to judge before any report', async () => {
    const { domain, headers } = await ownedDomain();
    const flow = (await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow?from=${dayAgo(2)}`, headers })).json() as MailFlow;
    expect(flow).toMatchObject({ messages: 0, reports: 0, senders: [], daily: [{ pass: 0 }, { pass: 0 }, { pass: 0 }] });
    expect(flow.readiness).toEqual({
      currentPolicy: null,
      testing: false,
      nextPolicy: null,
      legitimateMessages: 0,
      affectedMessages: 0,
      affectedShare: null,
      ready: false,
      blockers: ['No DMARC aggregate report has arrived yet: publish the DMARC record with the report address and wait for the first reports.'],
      record: null,
    });
  });

  it('clamps the window to the plan retention (basic: 90 days) and to today', async () => {
    const { domain, headers } = await ownedDomain('basic');
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow?from=${dayAgo(200)}&to=${dayAgo(-5)}`, headers });
    expect(res.statusCode).toBe(200);
    const flow = res.json() as MailFlow;
    expect({ from: flow.from, to: flow.to, retentionDays: flow.retentionDays, days: flow.daily.length }).toEqual({ from: dayAgo(90), to: today(), retentionDays: 90, days: 91 });
  });

  it('refuses bad days', async () => {
    const { domain, headers } = await ownedDomain();
    for (const query of ['from=2026-13-01', 'to=yesterday', `from=${dayAgo(1)}&to=${dayAgo(2)}`]) {
      const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/mail-flow?${query}`, headers });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('GET', (id) => `/api/domains/${id}/mail-flow`);
  });
});

describe('GET /api/domains/:id/tls-reports', () => {
  const tlsReport = (domain: string, id: string, day: string) =>
    Buffer.from(
      JSON.stringify({
        'organization-name': 'Company-X',
        'date-range': { 'start-datetime': `${day}T00:00:00Z`, 'end-datetime': `${day}T23:59:59Z` },
        'contact-info': 'sts-reporting@company-x.example',
        'report-id': id,
        policies: [
          {
            policy: { 'policy-type': 'sts', 'policy-string': ['version: STSv1', 'mode: testing'], 'policy-domain': domain, 'mx-host': `*.mail.${domain}` },
            summary: { 'total-successful-session-count': 100, 'total-failure-session-count': 30 },
            'failure-details': [
              { 'result-type': 'certificate-expired', 'receiving-mx-hostname': `mx1.${domain}`, 'failed-session-count': 10 },
              { 'result-type': 'starttls-not-supported', 'receiving-mx-hostname': `mx2.${domain}`, 'failed-session-count': 20 },
            ],
          },
        ],
      }),
    );

  it('sums sessions per day, failure and policy', async () => {
    const { user, domain, headers } = await ownedDomain();
    await ingest(user.id, domain.id, tlsReport(domain.name, 'x1', dayAgo(2)), 'application/tlsrpt+json');
    await ingest(user.id, domain.id, gzipSync(tlsReport(domain.name, 'x2', dayAgo(1))), 'application/tlsrpt+gzip');
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/tls-reports?from=${dayAgo(2)}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      from: dayAgo(2),
      to: today(),
      reports: 2,
      successfulSessions: 200,
      failedSessions: 60,
      daily: [
        { day: dayAgo(2), successful: 100, failed: 30 },
        { day: dayAgo(1), successful: 100, failed: 30 },
        { day: today(), successful: 0, failed: 0 },
      ],
      failures: [
        { resultType: 'starttls-not-supported', mxHost: `mx2.${domain.name}`, sessions: 40 },
        { resultType: 'certificate-expired', mxHost: `mx1.${domain.name}`, sessions: 20 },
      ],
      policies: [{ policyType: 'sts', policyDomain: domain.name, successful: 200, failed: 60 }],
    });
  });

  it('refuses bad days', async () => {
    const { domain, headers } = await ownedDomain();
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/tls-reports?from=01/02/2026`, headers });
    expect(res.statusCode).toBe(400);
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('GET', (id) => `/api/domains/${id}/tls-reports`);
  });
});
