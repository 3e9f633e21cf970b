import { gunzipSync, gzipSync } from 'node:zlib';
import { MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

const report = JSON.stringify({
  'organization-name': 'Company-X',
  'date-range': { 'start-datetime': '2026-11-26T00:00:00Z', 'end-datetime': '2026-11-26T23:59:59Z' },
  'contact-info': 'sts-reporting@company-x.example',
  'report-id': '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
  policies: [],
});

describe('TLS-RPT over HTTPS', () => {
  let h: Harness;
  let domain: { id: number; reportToken: string };

  beforeAll(async () => {
    h = await startHarness();
    domain = await h.f.domain({ userId: (await h.f.user('standard')).id });
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (token: string, contentType: string | undefined, payload: Buffer | string) =>
    h.app.inject({
      method: 'POST',
      url: `/api/intake/tls-rpt/${token}`,
      headers: contentType ? { 'content-type': contentType } : {},
      payload,
      remoteAddress: '192.0.2.25',
    });

  async function row(domainId: number) {
    const rows = await h.db.selectFrom('intakeMessages').selectAll().where('domainId', '=', domainId).orderBy('id', 'desc').execute();
    return rows[0];
  }

  it('stores a JSON report as sent, with no session, and queues its reading', async () => {
    const res = await post(domain.reportToken, 'application/tlsrpt+json', report);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: true });
    const stored = await row(domain.id);
    expect(stored).toMatchObject({ channel: 'https', contentType: 'application/tlsrpt+json', state: 'queued', envelope: { clientAddress: '192.0.2.25' } });
    expect(gunzipSync(stored!.rawGz).toString()).toBe(report);
    const job = await h.deps.queues.intake.getJob(`intake-message-${stored!.id}`);
    expect(job?.data).toEqual({ messageId: Number(stored!.id) });
  });

  it('stores a gzip report as sent (the reader unpacks it), whatever the parameters of the type', async () => {
    const gz = gzipSync(report);
    const res = await post(domain.reportToken, 'Application/TLSRPT+gzip; charset=binary', gz);
    expect(res.statusCode).toBe(200);
    const stored = await row(domain.id);
    expect(stored?.contentType).toBe('application/tlsrpt+gzip');
    expect(gunzipSync(stored!.rawGz).equals(gz)).toBe(true);
  });

  it('answers 404 for a token nobody has, a deleted domain and a plan without mail flow', async () => {
    const owner = await h.f.user('standard');
    const deleted = await h.f.domain({ userId: owner.id, deleted: true });
    const free = await h.f.domain({ userId: (await h.f.user('free')).id });
    const unknown = await post('b'.repeat(24), 'application/tlsrpt+json', report);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No report address has this token.' });
    expect((await post(deleted.reportToken, 'application/tlsrpt+json', report)).statusCode).toBe(404);
    const plan = await post(free.reportToken, 'application/tlsrpt+json', report);
    expect(plan.statusCode).toBe(404);
    expect(plan.json().message).toMatch(/paid plans/);
    expect(await row(free.id)).toBeUndefined();
  });

  it('answers 400 for a malformed token', async () => {
    expect((await post('not-a-token', 'application/tlsrpt+json', report)).statusCode).toBe(400);
  });

  it('answers 415 for any other content type', async () => {
    for (const type of ['application/json', 'text/plain', 'application/gzip', undefined]) {
      const res = await post(domain.reportToken, type, report);
      expect(res.statusCode, String(type)).toBe(415);
      expect(res.json().message).toMatch(/application\/tlsrpt\+json or application\/tlsrpt\+gzip/);
    }
  });

  it('answers 400 for an empty body or one that is not what its type says', async () => {
    const empty = await post(domain.reportToken, 'application/tlsrpt+json', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/empty/);
    expect((await post(domain.reportToken, 'application/tlsrpt+gzip', report)).statusCode).toBe(400);
    expect((await post(domain.reportToken, 'application/tlsrpt+json', gzipSync(report))).statusCode).toBe(400);
  });

  it('answers 413 past MAX_REPORT_UPLOAD_BYTES and stores nothing', async () => {
    const before = await h.db.selectFrom('intakeMessages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const big = Buffer.alloc(MAX_REPORT_UPLOAD_BYTES + 1, 0x20);
    big[0] = 0x7b;
    const res = await post(domain.reportToken, 'application/tlsrpt+json', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const after = await h.db.selectFrom('intakeMessages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('takes a report of exactly MAX_REPORT_UPLOAD_BYTES', async () => {
    const full = Buffer.alloc(MAX_REPORT_UPLOAD_BYTES, 0x20);
    full[0] = 0x7b;
    expect((await post(domain.reportToken, 'application/tlsrpt+json', full)).statusCode).toBe(200);
  });
});
