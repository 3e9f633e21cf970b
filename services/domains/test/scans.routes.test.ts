import { BLACKLIST_CHECK_STARTED_MESSAGE, JobName, SCAN_NOT_FOUND, SCAN_STARTED_MESSAGE, scanDomainAnswer, scanPausedMessage, scanStatusAnswer } from '@sendwell/contracts';
import { applyPlanSchedule } from '@sendwell/scan-engine';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const post = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url, headers });
const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

async function signedIn(plan = 'standard') {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

const scanRows = (domainId: number) =>
  h.db.selectFrom('scans').select(['id', 'trigger', 'status']).where('domainId', '=', domainId).orderBy('createdAt').execute();

describe('POST /api/domains/{id}/scan', () => {
  it('creates a manual scan row, queues it with the shared dedup options and answers 202 at once', async () => {
    const { user, headers } = await signedIn('free');
    const d = await h.f.domain({ userId: user.id });
    const res = await post(`/api/domains/${d.id}/scan`, headers);
    expect(res.statusCode).toBe(202);
    const answer = scanDomainAnswer.parse(res.json());
    expect(answer).toEqual({ scanId: expect.any(String), domainId: d.id, status: 'queued', message: SCAN_STARTED_MESSAGE });
    expect(await scanRows(d.id)).toEqual([{ id: answer.scanId, trigger: 'manual', status: 'queued' }]);
    const job = await h.deps.queues.scan.getJob(answer.scanId);
    expect(job?.name).toBe(JobName.ScanDomain);
    expect(job?.opts.deduplication?.id).toBe(`scan-${d.id}`);
    const row = await h.db.selectFrom('domains').select('lastManualScanAt').where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.lastManualScanAt).toBeInstanceOf(Date);
  });

  it('refuses a domain paused above the plan’s limit (403, with the way out), and scans it again once another is removed', async () => {
    const { user, headers } = await signedIn('basic');
    const kept = [await h.f.domain({ userId: user.id }), await h.f.domain({ userId: user.id })];
    const paused = await h.f.domain({ userId: user.id });
    expect(await applyPlanSchedule(h.db, user.id)).toMatchObject({ paused: 1 });
    for (const url of [`/api/domains/${paused.id}/scan`, `/api/domains/${paused.id}/check`]) {
      const res = await post(url, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', requiresUpgrade: true, message: scanPausedMessage(2) });
    }
    expect(await scanRows(paused.id)).toEqual([]);
    const listed = (await get('/api/domains', headers)).json() as Array<{ id: number; scanPaused: boolean }>;
    expect(listed.find((d) => d.id === paused.id)?.scanPaused).toBe(true);

    expect((await h.app.inject({ method: 'DELETE', url: `/api/domains/${kept[0]!.id}`, headers })).statusCode).toBe(200);
    const resumed = await h.db.selectFrom('domains').select(['scanPaused', 'nextScanAt']).where('id', '=', paused.id).executeTakeFirstOrThrow();
    expect(resumed.scanPaused).toBe(false);
    expect(resumed.nextScanAt).not.toBeNull();
    expect((await post(`/api/domains/${paused.id}/scan`, headers)).statusCode).toBe(202);
  });

  it('answers 429 RATE_LIMITED with retryAfterSeconds and the time left to a second call within 5 minutes', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    expect((await post(`/api/domains/${d.id}/scan`, headers)).statusCode).toBe(202);
    const second = await post(`/api/domains/${d.id}/scan`, headers);
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: expect.any(Number),
      message: 'A domain can be scanned manually once every 5 minutes. Please try again in 5 minutes.',
    });
    expect(second.json().retryAfterSeconds).toBeGreaterThan(290);
    expect(second.json().retryAfterSeconds).toBeLessThanOrEqual(300);
    expect(second.headers['retry-after']).toBe(String(second.json().retryAfterSeconds));
    expect(await scanRows(d.id)).toHaveLength(1);
  });

  it('lets exactly one of two racing calls through', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const results = await Promise.all([post(`/api/domains/${d.id}/scan`, headers), post(`/api/domains/${d.id}/scan`, headers), post(`/api/domains/${d.id}/check`, headers)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([202, 429, 429]);
    expect(await scanRows(d.id)).toHaveLength(1);
  });

  it('allows the next manual scan once the cooldown has passed, and says how long is left before', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    await h.db.updateTable('domains').set({ lastManualScanAt: sql<Date>`now() - interval '3 minutes 30 seconds'` }).where('id', '=', d.id).execute();
    const early = await post(`/api/domains/${d.id}/scan`, headers);
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toMatch(/try again in 2 minutes\.$/);
    await h.db.updateTable('domains').set({ lastManualScanAt: sql<Date>`now() - interval '5 minutes 1 second'` }).where('id', '=', d.id).execute();
    expect((await post(`/api/domains/${d.id}/scan`, headers)).statusCode).toBe(202);
  });

  it('answers the pending scan when the domain already has one queued, and drops the new row', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const first = await post(`/api/domains/${d.id}/scan`, headers);
    await h.db.updateTable('domains').set({ lastManualScanAt: null }).where('id', '=', d.id).execute();
    const again = await post(`/api/domains/${d.id}/scan`, headers);
    expect(again.statusCode).toBe(202);
    expect(again.json().scanId).toBe(first.json().scanId);
    expect(await scanRows(d.id)).toHaveLength(1);
  });

  it("answers 404 for another user's, a deleted and a missing domain; 400 for a bad id", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    const { user, headers } = await signedIn();
    const deleted = await h.f.domain({ userId: user.id, deletedDaysAgo: 1 });
    for (const id of [theirs.id, deleted.id, 2147483647]) {
      const res = await post(`/api/domains/${id}/scan`, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Domain not found' });
    }
    expect(await scanRows(theirs.id)).toEqual([]);
    for (const id of ['abc', '2147483648', '99999999999']) {
      const bad = await post(`/api/domains/${id}/scan`, headers);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Invalid id');
    }
  });
});

describe('POST /api/domains/{id}/check', () => {
  it('queues a blacklist-triggered (full) scan under the same cooldown', async () => {
    const { user, headers } = await signedIn('basic');
    const d = await h.f.domain({ userId: user.id });
    const res = await post(`/api/domains/${d.id}/check`, headers);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ domainId: d.id, status: 'queued', message: BLACKLIST_CHECK_STARTED_MESSAGE });
    expect(await scanRows(d.id)).toEqual([{ id: res.json().scanId, trigger: 'blacklist', status: 'queued' }]);
    expect((await h.deps.queues.scan.getJob(res.json().scanId))?.data).toMatchObject({ trigger: 'blacklist' });
    expect((await post(`/api/domains/${d.id}/scan`, headers)).statusCode).toBe(429);
  });

  it("answers 404 for another user's domain and 400 for a bad id", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    const { headers } = await signedIn();
    expect((await post(`/api/domains/${theirs.id}/check`, headers)).statusCode).toBe(404);
    expect((await post('/api/domains/-1/check', headers)).json().message).toBe('Invalid id');
  });
});

describe('GET /api/domains/{id}/scans/{scanId}', () => {
  it("answers the scan's progress", async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const scanId = await h.f.scan(d.id);
    const queued = await get(`/api/domains/${d.id}/scans/${scanId}`, headers);
    expect(queued.statusCode).toBe(200);
    expect(scanStatusAnswer.parse(queued.json())).toMatchObject({ id: scanId, domainId: d.id, status: 'queued', trigger: 'manual', startedAt: null, completedAt: null, overallStatus: null, error: null });
    const done = await h.f.completedScan(d.id);
    expect((await get(`/api/domains/${d.id}/scans/${done}`, headers)).json()).toMatchObject({ status: 'completed', overallStatus: 'healthy', completedAt: expect.any(String) });
  });

  it("answers 404 for another user's scan or a scan of another domain; 400 for bad ids", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    const theirScan = await h.f.scan(theirs.id);
    const { user, headers } = await signedIn();
    const mine = await h.f.domain({ userId: user.id });
    const mineToo = await h.f.domain({ userId: user.id });
    const otherDomainScan = await h.f.scan(mineToo.id);
    for (const url of [`/api/domains/${theirs.id}/scans/${theirScan}`, `/api/domains/${mine.id}/scans/${otherDomainScan}`, `/api/domains/${mine.id}/scans/00000000-0000-4000-8000-000000000000`]) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: SCAN_NOT_FOUND });
    }
    expect((await get(`/api/domains/${mine.id}/scans/nope`, headers)).json().message).toBe('Invalid scan id');
    expect((await get(`/api/domains/x/scans/${otherDomainScan}`, headers)).json().message).toBe('Invalid id');
  });
});
