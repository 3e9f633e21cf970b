import {
  MAIL_TEST_PLAN_MESSAGE,
  MAIL_TEST_TTL_MINUTES,
  mailTestAddressOf,
  mailTestQuotaMessage,
  mailTestSchema,
  listMailTestsAnswer,
  mailTestSummarySchema,
  type MailTestSummary,
} from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_TEST_NOT_FOUND } from '../src/mail-tests/mail-test.service.js';
import { startHarness, TEST_INTAKE_DOMAIN, type Harness } from './fixtures.js';

describe('mail tests API', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function create(headers: Record<string, string>): Promise<MailTestSummary> {
    const res = await h.app.inject({ method: 'POST', url: '/api/mail-tests', headers });
    expect(res.statusCode).toBe(201);
    return mailTestSummarySchema.parse(res.json());
  }

  it('creates a waiting test address for an hour, lists it and answers it', async () => {
    const user = await h.f.user('standard');
    const headers = await h.auth(user);
    const test = await create(headers);
    const [, token] = /^test-([a-z0-9]{24})@/.exec(test.address) ?? [];
    expect(test.address).toBe(mailTestAddressOf(token!, TEST_INTAKE_DOMAIN));
    expect(test).toMatchObject({ status: 'waiting', receivedAt: null, fromAddress: null, subject: null, score: null });
    expect(Date.parse(test.expiresAt) - Date.parse(test.createdAt)).toBe(MAIL_TEST_TTL_MINUTES * 60_000);

    const second = await create(headers);
    const list = await h.app.inject({ method: 'GET', url: '/api/mail-tests', headers });
    expect(list.statusCode).toBe(200);
    expect(listMailTestsAnswer.parse(list.json())).toEqual({ tests: [second, test], quota: { used: 2, limit: 20 } });

    const one = await h.app.inject({ method: 'GET', url: `/api/mail-tests/${test.id}`, headers });
    expect(one.statusCode).toBe(200);
    expect(mailTestSchema.parse(one.json())).toEqual({ ...test, session: null, analysis: null, error: null });
  });

  it('lists the last 30 days only, and counts the quota from the start of the UTC day', async () => {
    const user = await h.f.user('advanced');
    const headers = await h.auth(user);
    const recent = await create(headers);
    const old = await create(headers);
    const yesterday = await create(headers);
    await h.db.updateTable('inboxPlacementTests').set({ createdAt: new Date(Date.now() - 31 * 86_400_000) }).where('id', '=', old.id).execute();
    const startOfDay = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    await h.db.updateTable('inboxPlacementTests').set({ createdAt: new Date(startOfDay.getTime() - 1) }).where('id', '=', yesterday.id).execute();
    const list = listMailTestsAnswer.parse((await h.app.inject({ method: 'GET', url: '/api/mail-tests', headers })).json());
    expect(list.tests.map((t) => t.id)).toEqual([recent.id, yesterday.id]);
    expect(list.quota).toEqual({ used: 1, limit: 100 });
  });

  it('answers expired for a waiting test past its hour', async () => {
    const user = await h.f.user('standard');
    const headers = await h.auth(user);
    const test = await create(headers);
    await h.db.updateTable('inboxPlacementTests').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', test.id).execute();
    const one = await h.app.inject({ method: 'GET', url: `/api/mail-tests/${test.id}`, headers });
    expect(one.json()).toMatchObject({ id: test.id, status: 'expired' });
  });

  it("answers 400 for a bad id and 404 for another user's test or an unknown one", async () => {
    const owner = await h.f.user('standard');
    const test = await create(await h.auth(owner));
    const other = await h.auth(await h.f.user('advanced'));
    const bad = await h.app.inject({ method: 'GET', url: '/api/mail-tests/abc', headers: other });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await h.app.inject({ method: 'GET', url: '/api/mail-tests/abc/events', headers: other })).statusCode).toBe(400);
    for (const url of [`/api/mail-tests/${test.id}`, `/api/mail-tests/${test.id}/events`, '/api/mail-tests/999999']) {
      const res = await h.app.inject({ method: 'GET', url, headers: other });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND', message: MAIL_TEST_NOT_FOUND });
    }
  });

  it('answers 403 with the upgrade message below Standard, 401 without a session', async () => {
    const owner = await h.f.user('standard');
    const test = await create(await h.auth(owner));
    // A lapsed plan loses the screen, its own tests included.
    await h.db.updateTable('users').set({ planType: 'basic' }).where('id', '=', owner.id).execute();
    for (const headers of [await h.auth(owner), await h.auth(await h.f.user('basic')), await h.auth(await h.f.user('free'))]) {
      for (const [method, url] of [['POST', '/api/mail-tests'], ['GET', '/api/mail-tests'], ['GET', `/api/mail-tests/${test.id}`], ['GET', `/api/mail-tests/${test.id}/events`]] as const) {
        const res = await h.app.inject({ method, url, headers });
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toMatchObject({ code: 'FORBIDDEN', message: MAIL_TEST_PLAN_MESSAGE, requiresUpgrade: true });
      }
    }
    expect((await h.app.inject({ method: 'POST', url: '/api/mail-tests' })).statusCode).toBe(401);
    expect(await h.db.selectFrom('inboxPlacementTests').select('id').where('userId', '=', owner.id).execute()).toHaveLength(1);
  });

  it('creates exactly the daily quota under 25 parallel requests, 429 for the rest', async () => {
    const user = await h.f.user('standard');
    const headers = await h.auth(user);
    const answers = await Promise.all(Array.from({ length: 25 }, () => h.app.inject({ method: 'POST', url: '/api/mail-tests', headers })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: mailTestQuotaMessage(20) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const rows = await h.db.selectFrom('inboxPlacementTests').select(['testId']).where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.testId)).size).toBe(20);
    const list = listMailTestsAnswer.parse((await h.app.inject({ method: 'GET', url: '/api/mail-tests', headers })).json());
    expect(list.quota).toEqual({ used: 20, limit: 20 });
  });
});
