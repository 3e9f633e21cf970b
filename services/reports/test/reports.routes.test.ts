import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateReportsAnswer,
  getReportAnswer,
  checkTypes,
  listReportsAnswer,
  NO_DOMAINS_FOR_REPORTS,
  REPORT_NOT_FOUND,
  REPORT_NOT_READY,
  reportDocumentSchema,
  reportQuotaMessage,
  REPORTS_PLAN_MESSAGE,
} from '@sendwell/contracts';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { waitFor } from './wait.js';

/** The Reports screen's calls on the real service: Postgres, Redis, the report worker and real PDFs. */

let h: Harness;
let worker: Worker | null;
const scratch = mkdtempSync(join(tmpdir(), 'reports-routes-'));

beforeAll(async () => {
  h = await startHarness();
  worker = await h.deps.startWorker();
}, 60_000);

afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function signedIn(plan: string) {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers?: Record<string, string>, payload?: unknown) =>
  h.app.inject({ method, url, ...(headers ? { headers } : {}), ...(payload !== undefined ? { payload: payload as object } : {}) });

async function generated(headers: Record<string, string>, domains: unknown[], type = 'full') {
  const res = await inject('POST', '/api/reports/generate', headers, { domains, type });
  expect(res.statusCode, res.body).toBe(202);
  return generateReportsAnswer.parse(res.json());
}

async function completed(headers: Record<string, string>, id: number) {
  return waitFor(async () => {
    const res = await inject('GET', `/api/reports/${id}`, headers);
    const report = getReportAnswer.parse(res.json());
    return report.status === 'completed' ? report : null;
  }, 30_000);
}

describe('generate, read and download', () => {
  it('queues a report per domain, builds it in the worker and serves every format', async () => {
    expect(worker).not.toBeNull();
    const { user, headers } = await signedIn('standard');
    const domain = await h.f.domain(user.id, { name: 'acme-mail.example' });
    await h.f.completedScan(domain.id, { at: new Date(Date.now() - 3 * 86_400_000), score: 64 });
    await h.f.completedScan(domain.id, { statuses: { spf: 'error' }, score: 58, listedOn: 'Spamhaus ZEN' });
    await h.f.dnsChangeAlert(user.id, domain.id, new Date(Date.now() - 86_400_000), 'DMARC policy downgraded from reject to none');

    const answer = await generated(headers, [{ id: domain.id, name: domain.name, status: 'warning' }]);
    expect(answer.reports).toHaveLength(1);
    expect(answer.reports[0]).toMatchObject({ domainId: domain.id, type: 'full', status: 'pending', data: { domainName: domain.name } });
    expect(answer).toMatchObject({ refused: [], used: 1, quota: 100, message: '1 report queued for generation.' });

    const report = await completed(headers, answer.reports[0]!.id);
    const document = reportDocumentSchema.parse(report.document);
    expect(document.overall.score).toBe(58);
    // The six core checks and the mail checks, each printed with what the domain publishes.
    expect(document.checks.map((c) => c.type).sort()).toEqual([...checkTypes].sort());
    expect(document.checks.find((c) => c.type === 'mta_sts')?.published).toEqual([
      { label: 'TXT _mta-sts.acme-mail.example', value: 'v=STSv1; id=20261101' },
      { label: 'Policy', value: 'mode enforce, max_age 604800, mx mx1.example.net' },
    ]);
    expect(document.checks[0]!.status).toBe('error'); // most impact first
    expect(document.blacklist?.counts.listed).toBe(1);
    expect(document.trends?.points).toHaveLength(90);
    expect(document.trends?.points.filter((p) => p.score !== null)).toHaveLength(2);
    expect(document.trends?.dnsChanges.map((c) => c.summary)).toEqual(['DMARC policy downgraded from reject to none']);
    expect(report.data.summary).toBe(document.summary);
    expect(report.data.score).toBe(58);

    const day = new Date(report.createdAt).toISOString().slice(0, 10);
    const expected = {
      pdf: 'application/pdf',
      html: 'text/html; charset=utf-8',
      json: 'application/json; charset=utf-8',
      text: 'text/plain; charset=utf-8',
    } as const;
    const bodies: Record<string, Buffer> = {};
    for (const [format, contentType] of Object.entries(expected)) {
      const res = await inject('GET', `/api/reports/${report.id}/download?format=${format}`, headers);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['content-type']).toBe(contentType);
      const ext = format === 'text' ? 'txt' : format;
      expect(res.headers['content-disposition']).toBe(`attachment; filename="sendwell-acme-mail.example-${day}.${ext}"`);
      bodies[format] = res.rawPayload;
    }
    // The PDF reads right: text extracted by poppler holds the domain, the score and a finding.
    const pdfFile = join(scratch, 'report.pdf');
    writeFileSync(pdfFile, bodies.pdf!);
    const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
    expect(text).toContain('acme-mail.example');
    expect(text).toContain('58');
    expect(text).toContain('Spamhaus ZEN');
    expect(text).toContain('MX STARTTLS');
    expect(text).toContain('PTR 192.0.2.25');
    expect(reportDocumentSchema.parse(JSON.parse(bodies.json!.toString('utf8')))).toEqual(document);
    expect(bodies.html!.toString('utf8')).toContain('acme-mail.example');
    expect(bodies.text!.toString('utf8')).toContain('DMARC policy downgraded from reject to none');

    // The preview: the HTML inline, with no script allowed.
    const preview = await inject('GET', `/api/reports/${report.id}/download?format=html&inline=1`, headers);
    expect(preview.headers['content-disposition']).toMatch(/^inline; /);
    expect(preview.headers['content-security-policy']).toContain("default-src 'none'");

    // The listing carries no document nor file.
    const list = await inject('GET', '/api/reports', headers);
    expect(listReportsAnswer.parse(list.json())).toHaveLength(1);
    expect(list.body.length).toBeLessThan(1_000);
  }, 60_000);

  it('makes a one-page summary with the top three actions', async () => {
    const { user, headers } = await signedIn('advanced');
    const domain = await h.f.domain(user.id);
    await h.f.completedScan(domain.id, { statuses: { spf: 'error', dkim: 'missing', ssl_certificate: 'warning' }, score: 40 });
    const answer = await generated(headers, [{ name: domain.name }], 'summary');
    const report = await completed(headers, answer.reports[0]!.id);
    expect(report.type).toBe('summary');
    expect(report.document?.kind).toBe('summary');
    expect(report.document?.actions).toHaveLength(3);
    expect(report.document?.checks).toEqual([]);
    const pdf = await inject('GET', `/api/reports/${report.id}/download?format=pdf`, headers);
    const file = join(scratch, 'summary.pdf');
    writeFileSync(file, pdf.rawPayload);
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
  }, 60_000);

  it('answers 409 while a report is being generated', async () => {
    const { user, headers } = await signedIn('standard');
    const domain = await h.f.domain(user.id);
    const [row] = await h.db
      .insertInto('reports')
      .values({ userId: user.id, domainId: domain.id, type: 'full', status: 'pending', data: JSON.stringify({ domainName: domain.name, summary: 'x' }) })
      .returning(['id'])
      .execute();
    const res = await inject('GET', `/api/reports/${row!.id}/download?format=pdf`, headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(REPORT_NOT_READY);
  });
});

describe('bad input', () => {
  it('answers 400 with a message', async () => {
    const { headers } = await signedIn('standard');
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/reports/generate', { domains: [] }, NO_DOMAINS_FOR_REPORTS],
      ['POST', '/api/reports/generate', {}, NO_DOMAINS_FOR_REPORTS],
      ['POST', '/api/reports/generate', { domains: [{ id: 1 }], type: 'huge' }, 'Report type must be full or summary'],
      ['POST', '/api/reports/generate', { domains: [{ status: 'x' }] }, 'Each domain needs an id or a name'],
      ['GET', '/api/reports/abc', undefined, ''],
      ['GET', '/api/reports/1/download?format=docx', undefined, 'Format must be pdf, html, json or text'],
      ['DELETE', '/api/reports/0', undefined, ''],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await inject(method as 'GET', url, headers, body);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      if (message) expect(res.json().message, `${method} ${url}`).toContain(message);
    }
  });

  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/reports'],
      ['POST', '/api/reports/generate'],
      ['GET', '/api/reports/1'],
      ['GET', '/api/reports/1/download'],
      ['DELETE', '/api/reports/1'],
    ] as const) {
      expect((await inject(method, url)).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('plan and quota', () => {
  it('refuses every call to the free and one-time plans with the upgrade message', async () => {
    for (const plan of ['free', 'onetime']) {
      const { user, headers } = await signedIn(plan);
      const domain = await h.f.domain(user.id);
      for (const [method, url, body] of [
        ['GET', '/api/reports', undefined],
        ['POST', '/api/reports/generate', { domains: [{ id: domain.id }] }],
        ['GET', '/api/reports/1', undefined],
        ['GET', '/api/reports/1/download?format=pdf', undefined],
        ['DELETE', '/api/reports/1', undefined],
      ] as const) {
        const res = await inject(method, url, headers, body);
        expect(res.statusCode, `${plan} ${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ message: REPORTS_PLAN_MESSAGE, requiresUpgrade: true });
      }
    }
  });

  it('queues up to the quota, refuses the rest by name, then answers 403 with the count', async () => {
    const { user, headers } = await signedIn('basic');
    const domains = [await h.f.domain(user.id), await h.f.domain(user.id)];
    await h.f.fillReports(user.id, domains[0]!.id, 49);
    const answer = await generated(headers, domains.map((d) => ({ id: d.id })));
    expect(answer.reports).toHaveLength(1);
    expect(answer.refused).toEqual([{ domain: domains[1]!.name, reason: 'quota', message: reportQuotaMessage(50) }]);
    expect(answer).toMatchObject({ used: 50, quota: 50 });

    const res = await inject('POST', '/api/reports/generate', headers, { domains: [{ id: domains[0]!.id }] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', message: reportQuotaMessage(50), details: { used: 50, quota: 50 } });

    // Deleting one frees a place.
    const del = await inject('DELETE', `/api/reports/${answer.reports[0]!.id}`, headers);
    expect(del.json()).toEqual({ success: true });
    expect((await generated(headers, [{ id: domains[0]!.id }])).reports).toHaveLength(1);
  });

  it('lets twenty requests at once take exactly the places left, and refuses the rest with the quota answer', async () => {
    const { user, headers } = await signedIn('basic');
    const domain = await h.f.domain(user.id);
    await h.f.fillReports(user.id, domain.id, 40);
    const answers = await Promise.all(Array.from({ length: 20 }, () => inject('POST', '/api/reports/generate', headers, { domains: [{ id: domain.id }] })));
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode !== 202);
    expect(refused).toHaveLength(10);
    for (const res of refused) expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', message: reportQuotaMessage(50) });
    expect(await h.deps.services.reports.list({ ...user, emailVerified: true })).toHaveLength(50);
  });
});

describe("another user's objects", () => {
  it("answers 404 for another user's report and refuses another user's domain as not found", async () => {
    const owner = await signedIn('standard');
    const other = await signedIn('standard');
    const domain = await h.f.domain(owner.user.id);
    await h.f.completedScan(domain.id);
    const { reports } = await generated(owner.headers, [{ id: domain.id }]);
    const id = reports[0]!.id;
    for (const [method, url] of [
      ['GET', `/api/reports/${id}`],
      ['GET', `/api/reports/${id}/download?format=json`],
      ['DELETE', `/api/reports/${id}`],
    ] as const) {
      const res = await inject(method, url, other.headers);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe(REPORT_NOT_FOUND);
    }
    expect(listReportsAnswer.parse((await inject('GET', '/api/reports', other.headers)).json())).toEqual([]);

    const mine = await h.f.domain(other.user.id);
    const mixed = await generated(other.headers, [{ id: domain.id }, { id: mine.id }]);
    expect(mixed.reports.map((r) => r.domainId)).toEqual([mine.id]);
    expect(mixed.refused).toEqual([{ domain: String(domain.id), reason: 'not_found', message: 'Domain not found' }]);
    const none = await inject('POST', '/api/reports/generate', other.headers, { domains: [{ id: domain.id }] });
    expect(none.statusCode).toBe(404);
    // The owner's report is still there.
    expect((await inject('GET', `/api/reports/${id}`, owner.headers)).statusCode).toBe(200);
  });

  it('refuses a deleted domain and deletes a report with its document', async () => {
    const { user, headers } = await signedIn('standard');
    const gone = await h.f.domain(user.id, { deleted: true });
    expect((await inject('POST', '/api/reports/generate', headers, { domains: [{ id: gone.id }] })).statusCode).toBe(404);

    const domain = await h.f.domain(user.id);
    await h.f.completedScan(domain.id);
    const { reports } = await generated(headers, [{ id: domain.id }]);
    await completed(headers, reports[0]!.id);
    expect((await inject('DELETE', `/api/reports/${reports[0]!.id}`, headers)).statusCode).toBe(200);
    expect(await h.db.selectFrom('reportDocuments').select('reportId').where('reportId', '=', reports[0]!.id).execute()).toEqual([]);
    expect((await inject('DELETE', `/api/reports/${reports[0]!.id}`, headers)).statusCode).toBe(404);
  }, 30_000);
});
