import { gzipSync } from 'node:zlib';
import { DOMAIN_NOT_FOUND, MAIL_FLOW_PLAN_MESSAGE, MAX_REPORT_UPLOAD_BYTES, UPLOAD_EMPTY_MESSAGE } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

const DAY_MS = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const epoch = (day: string, end = false) => Math.floor(Date.parse(`${day}T${end ? '23:59:59' : '00:00:00'}Z`) / 1000);

/** A one-record RFC 7489 aggregate report about `domain` for a day. */
function aggregateXml(domain: string, org: string, reportId: string, day: string, count = 7): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<feedback><version>1.0</version>
<report_metadata><org_name>${org}</org_name><email>dmarc@${org}</email><report_id>${reportId}</report_id>
  <date_range><begin>${epoch(day)}</begin><end>${epoch(day, true)}</end></date_range></report_metadata>
<policy_published><domain>${domain}</domain><p>none</p></policy_published>
<record><row><source_ip>192.0.2.44</source_ip><count>${count}</count>
  <policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>pass</spf></policy_evaluated></row>
  <identifiers><header_from>${domain}</header_from></identifiers>
  <auth_results><spf><domain>${domain}</domain><result>pass</result></spf></auth_results></record>
</feedback>`);
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function ownedDomain(plan = 'standard') {
  const user = await h.f.user(plan);
  const domain = await h.f.domain({ userId: user.id });
  return { user, domain, headers: await h.auth(user) };
}

const upload = (id: number | string, headers: Record<string, string>, payload: Buffer | string, contentType = 'application/xml') =>
  h.app.inject({ method: 'POST', url: `/api/domains/${id}/dmarc-reports`, headers: { ...headers, 'content-type': contentType }, payload });

/** 401 without a session, 403 (plan) on free, 404 for another user's domain, 400 for a bad id. */
async function expectGuards(method: 'GET' | 'POST', path: (id: number | string) => string, payload?: Buffer) {
  const { domain } = await ownedDomain();
  const extra = payload ? { payload, headers: { 'content-type': 'application/xml' } } : {};
  const noAuth = await h.app.inject({ method, url: path(domain.id), ...extra });
  expect(noAuth.statusCode).toBe(401);

  const free = await ownedDomain('free');
  const plan = await h.app.inject({ method, url: path(free.domain.id), ...extra, headers: { ...extra.headers, ...free.headers } });
  expect(plan.statusCode).toBe(403);
  expect(plan.json().message).toBe(MAIL_FLOW_PLAN_MESSAGE);

  const other = await ownedDomain();
  const theirs = await h.app.inject({ method, url: path(domain.id), ...extra, headers: { ...extra.headers, ...other.headers } });
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json().message).toBe(DOMAIN_NOT_FOUND);

  const bad = await h.app.inject({ method, url: path('0'), ...extra, headers: { ...extra.headers, ...other.headers } });
  expect(bad.statusCode).toBe(400);
}

describe('POST /api/domains/:id/dmarc-reports', () => {
  it('stores an uploaded report (202) and lists the same report again as a duplicate', async () => {
    const { domain, headers } = await ownedDomain();
    const xml = gzipSync(aggregateXml(domain.name, 'google.com', 'up-1', dayAgo(2)));
    const first = await upload(domain.id, headers, xml, 'application/gzip');
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ accepted: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'up-1', records: 1 }], duplicates: [] });

    // Any type is read by sniffing the bytes.
    const again = await upload(domain.id, headers, xml, 'application/x-unknown');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ accepted: [], duplicates: [{ kind: 'aggregate', reporter: 'google.com', reportId: 'up-1' }] });

    const stored = await h.db.selectFrom('mailReports').select(['channel', 'messages', 'messageId']).where('domainId', '=', domain.id).execute();
    expect(stored).toEqual([{ channel: 'upload', messages: '7', messageId: null }]);
  });

  it('refuses an empty body, an unreadable file and a report about another domain (400 with the reason)', async () => {
    const { domain, headers } = await ownedDomain();
    const empty = await upload(domain.id, headers, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(UPLOAD_EMPTY_MESSAGE);

    const noBody = await h.app.inject({ method: 'POST', url: `/api/domains/${domain.id}/dmarc-reports`, headers });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().message).toBe(UPLOAD_EMPTY_MESSAGE);

    const junk = await upload(domain.id, headers, 'hello, this is not a report', 'text/plain');
    expect(junk.statusCode).toBe(400);
    expect(junk.json().message).toMatch(/No report was found/);

    const foreign = await upload(domain.id, headers, aggregateXml('someone-else.example', 'google.com', 'x', dayAgo(1)));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toContain('someone-else.example');
    expect(await h.db.selectFrom('mailReports').select('id').where('domainId', '=', domain.id).execute()).toEqual([]);
  });

  it('refuses a body past the upload limit (413)', async () => {
    const { domain, headers } = await ownedDomain();
    const res = await upload(domain.id, headers, Buffer.alloc(MAX_REPORT_UPLOAD_BYTES + 1, 0x20));
    expect(res.statusCode).toBe(413);
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('POST', (id) => `/api/domains/${id}/dmarc-reports`, aggregateXml('x.example', 'google.com', 'g', dayAgo(1)));
  });
});

describe('GET /api/domains/:id/dmarc-reports and the source file', () => {
  it('lists the newest reports first with their source, and failure reports', async () => {
    const { domain, headers } = await ownedDomain();
    await upload(domain.id, headers, aggregateXml(domain.name, 'google.com', 'old', dayAgo(3), 5));
    await upload(domain.id, headers, aggregateXml(domain.name, 'yahoo.com', 'new', dayAgo(2), 9));
    const rows = await h.db.selectFrom('mailReports').select(['id', 'reportId', 'receivedAt']).where('domainId', '=', domain.id).orderBy('id').execute();
    const [old, newer] = rows.map((r) => ({ ...r, id: Number(r.id) }));
    if (!old || !newer) throw new Error('not stored');
    // The older report's file is gone (past its retention): no source link.
    await h.db.deleteFrom('mailReportSources').where('reportId', '=', String(old.id)).execute();
    await h.db
      .insertInto('dmarcFailureReports')
      .values({ domainId: domain.id, arrivalDate: new Date('2026-01-02T03:04:05Z'), sourceIp: '203.0.113.9', authFailure: 'dmarc', report: JSON.stringify({ reportedDomain: domain.name }) })
      .execute();

    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/dmarc-reports`, headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.reports).toEqual([
      {
        id: newer.id,
        kind: 'aggregate',
        reporter: 'yahoo.com',
        reporterEmail: 'dmarc@yahoo.com',
        reportId: 'new',
        begin: `${dayAgo(2)}T00:00:00.000Z`,
        end: `${dayAgo(2)}T23:59:59.000Z`,
        records: 1,
        messages: 9,
        via: 'upload',
        receivedAt: newer.receivedAt.toISOString(),
        sourceUrl: `/api/domains/${domain.id}/dmarc-reports/${newer.id}/source`,
      },
      expect.objectContaining({ id: old.id, reportId: 'old', messages: 5, sourceUrl: null }),
    ]);
    expect(body.failureReports).toEqual([
      { id: expect.any(Number), receivedAt: expect.any(String), arrivalDate: '2026-01-02T03:04:05.000Z', sourceIp: '203.0.113.9', authFailure: 'dmarc', report: { reportedDomain: domain.name } },
    ]);

    const source = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/dmarc-reports/${newer.id}/source`, headers });
    expect(source.statusCode).toBe(200);
    expect(source.body).toBe(aggregateXml(domain.name, 'yahoo.com', 'new', dayAgo(2), 9).toString());
    expect(source.headers['content-type']).toBe('application/xml');
    expect(source.headers['content-disposition']).toBe('attachment; filename="dmarc-yahoo.com-new.xml"');
    expect(source.headers['x-content-type-options']).toBe('nosniff');
    expect(source.headers['cache-control']).toBe('private, no-store');

    // Gone, another domain's report, or no such report: 404.
    const gone = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/dmarc-reports/${old.id}/source`, headers });
    expect(gone.statusCode).toBe(404);
    const other = await ownedDomain();
    const viaOwnDomain = await h.app.inject({ method: 'GET', url: `/api/domains/${other.domain.id}/dmarc-reports/${newer.id}/source`, headers: other.headers });
    expect(viaOwnDomain.statusCode).toBe(404);
    const badId = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/dmarc-reports/abc/source`, headers });
    expect(badId.statusCode).toBe(400);
  });

  it('lists nothing for a domain without reports', async () => {
    const { domain, headers } = await ownedDomain();
    const res = await h.app.inject({ method: 'GET', url: `/api/domains/${domain.id}/dmarc-reports`, headers });
    expect(res.json()).toEqual({ reports: [], failureReports: [] });
  });

  it('refuses without a session, on a free plan, for another user and for a bad id', async () => {
    await expectGuards('GET', (id) => `/api/domains/${id}/dmarc-reports`);
    await expectGuards('GET', (id) => `/api/domains/${id}/dmarc-reports/1/source`);
  });
});
