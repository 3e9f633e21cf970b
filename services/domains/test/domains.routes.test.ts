import {
  checkTypes,
  createDomainAnswer,
  DOMAIN_EXISTS,
  DOMAIN_DETAIL_PLAN_MESSAGE,
  DOMAIN_NOT_FOUND,
  DOMAIN_NOT_RESTORABLE,
  domainLimitMessage,
  FREE_DOMAIN_LIMIT_MESSAGE,
  JobName,
  listDeletedDomainsAnswer,
  listDomainsAnswer,
  messages,
  NOT_AUTHENTICATED,
} from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersLikeMissing, startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
  h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function signedIn(plan = 'standard') {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

const expectSameAsMissing = (method: Method, ownUrl: string, missingUrl: string, headers: Record<string, string>, payload?: object) =>
  expectAnswersLikeMissing(h, { method, ownUrl, missingUrl, headers, payload });

describe('authentication', () => {
  it.each([
    ['GET', '/api/domains'],
    ['GET', '/api/domains/deleted'],
    ['POST', '/api/domains'],
    ['GET', '/api/domains/1'],
    ['DELETE', '/api/domains/1'],
    ['POST', '/api/domains/restore'],
    ['GET', '/api/domains/1/checks'],
    ['GET', '/api/domains/by-name/example.com'],
    ['GET', '/api/domains/name/example.com/checks'],
    ['GET', '/api/domains/name/example.com/dns-records'],
    ['GET', '/api/domains/1/reputation'],
    ['GET', '/api/domains/1/last-scan'],
    ['POST', '/api/domains/1/scan'],
    ['POST', '/api/domains/1/check'],
    ['GET', '/api/domains/1/history/days'],
    ['GET', '/api/domain-checks/history'],
    ['GET', '/api/domain-checks/00000000-0000-4000-8000-000000000000'],
  ] as const)('%s %s answers 401 without a session', async (method, url) => {
    const res = await call(method, url);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  });
});

describe('GET /api/domains', () => {
  it("lists the user's active domains, newest first, with scan fields and nextScanAt", async () => {
    const { user, headers } = await signedIn('advanced');
    const older = await h.f.domain({ userId: user.id, createdAt: new Date(Date.now() - 60_000) });
    const newer = await h.f.domain({ userId: user.id, nextScanAt: new Date(Date.now() + 600_000) });
    await h.f.completedScan(older.id);
    await h.f.domain({ userId: user.id, deletedDaysAgo: 1 });
    const stranger = await h.f.user();
    await h.f.domain({ userId: stranger.id });

    const res = await call('GET', '/api/domains', headers);
    expect(res.statusCode).toBe(200);
    const list = listDomainsAnswer.parse(res.json());
    expect(list.map((d) => d.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({ name: newer.name, status: 'pending', lastScan: null, scanCount: 0, nextScanAt: expect.any(String), isDeleted: false });
    expect(list[1]).toMatchObject({ status: 'healthy', scanCount: 1, lastScan: expect.any(String) });
  });

  it('answers [] for a user without domains', async () => {
    const { headers } = await signedIn();
    expect((await call('GET', '/api/domains', headers)).json()).toEqual([]);
  });
});

describe('GET /api/domains/deleted', () => {
  it('lists deletions within the 90-day window with deletedAt and restorableUntil, newest deletion first', async () => {
    const { user, headers } = await signedIn();
    const recent = await h.f.domain({ userId: user.id, deletedDaysAgo: 2 });
    const older = await h.f.domain({ userId: user.id, deletedDaysAgo: 45 });
    await h.f.domain({ userId: user.id, deletedDaysAgo: 91 });
    await h.f.domain({ userId: user.id });
    const stranger = await h.f.user();
    await h.f.domain({ userId: stranger.id, deletedDaysAgo: 1 });

    const res = await call('GET', '/api/domains/deleted', headers);
    expect(res.statusCode).toBe(200);
    const list = listDeletedDomainsAnswer.parse(res.json());
    expect(list.map((d) => d.id)).toEqual([recent.id, older.id]);
    const first = list[0]!;
    expect(Date.parse(first.restorableUntil) - Date.parse(first.deletedAt)).toBe(90 * 86_400_000);
  });
});

describe('POST /api/domains', () => {
  it('adds a trimmed, lower-cased name on a paid plan, schedules it now and queues its first scan', async () => {
    const { user, headers } = await signedIn('basic');
    const before = Date.now();
    const res = await call('POST', '/api/domains', headers, { name: '  Shop.Example.COM ' });
    expect(res.statusCode).toBe(201);
    const answer = createDomainAnswer.parse(res.json());
    expect(answer).toMatchObject({ restored: false, domain: { name: 'shop.example.com', userId: user.id, status: 'pending', scanCount: 0 } });
    expect(Date.parse(answer.domain.nextScanAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.scanId).toEqual(expect.any(String));

    const scan = await h.db.selectFrom('scans').select(['domainId', 'trigger', 'status']).where('id', '=', answer.scanId!).executeTakeFirstOrThrow();
    expect(scan).toEqual({ domainId: answer.domain.id, trigger: 'manual', status: 'queued' });
    const job = await h.deps.queues.scan.getJob(answer.scanId!);
    expect(job?.name).toBe(JobName.ScanDomain);
    expect(job?.data).toEqual({ scanId: answer.scanId, domainId: answer.domain.id, trigger: 'manual' });
  });

  it('leaves a free domain unscheduled (manual scans only) and still queues its first scan', async () => {
    const { headers } = await signedIn('free');
    const res = await call('POST', '/api/domains', headers, { name: 'free-one.example' });
    expect(res.statusCode).toBe(201);
    expect(res.json().domain.nextScanAt).toBeNull();
    expect(res.json().scanId).toEqual(expect.any(String));
  });

  it.each([
    ['too short', { name: ' a.b ' }, messages.domainMin],
    ['not a domain', { name: 'not a domain' }, messages.domainInvalid],
    ['a label ending in a hyphen', { name: 'bad-.example.com' }, messages.domainInvalid],
    ['a numeric top-level part', { name: 'example.123' }, messages.domainInvalid],
    ['missing', {}, 'Required'],
  ])('refuses a name that is %s with 400 and the exact message', async (_case, body, message) => {
    const { headers } = await signedIn();
    const res = await call('POST', '/api/domains', headers, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('answers 409 DOMAIN_EXISTS for a name the user already has', async () => {
    const { user, headers } = await signedIn();
    await h.f.domain({ userId: user.id, name: 'twice.example.com' });
    const res = await call('POST', '/api/domains', headers, { name: 'TWICE.example.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: DOMAIN_EXISTS });
  });

  it("lets another user add a name someone else monitors", async () => {
    const owner = await h.f.user();
    await h.f.domain({ userId: owner.id, name: 'shared.example.com' });
    const { headers } = await signedIn();
    expect((await call('POST', '/api/domains', headers, { name: 'shared.example.com' })).statusCode).toBe(201);
  });

  it('refuses a second domain on the free plan with requiresUpgrade and "limited to 1 domain"', async () => {
    const { user, headers } = await signedIn('free');
    await h.f.domain({ userId: user.id });
    const res = await call('POST', '/api/domains', headers, { name: 'second.example.com' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', requiresUpgrade: true, message: FREE_DOMAIN_LIMIT_MESSAGE });
    expect(res.json().message).toContain('limited to 1 domain');
  });

  it('counts deletions still restorable toward the limit, and not those past the window', async () => {
    const { user, headers } = await signedIn('onetime');
    await h.f.domain({ userId: user.id, deletedDaysAgo: 80 });
    const refused = await call('POST', '/api/domains', headers, { name: 'next.example.com' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().requiresUpgrade).toBe(true);

    const other = await signedIn('free');
    await h.f.domain({ userId: other.user.id, deletedDaysAgo: 95 });
    expect((await call('POST', '/api/domains', other.headers, { name: 'next.example.com' })).statusCode).toBe(201);
  });

  it('refuses a paid plan over its limit naming the limit, without the free-plan flag', async () => {
    const { user, headers } = await signedIn('basic');
    await h.f.domain({ userId: user.id });
    await h.f.domain({ userId: user.id, deletedDaysAgo: 3 });
    const res = await call('POST', '/api/domains', headers, { name: 'third.example.com' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', requiresUpgrade: false });
    expect(res.json().message).toContain('limited to 2 domains');
  });

  it('lets exactly one of two simultaneous adds on the free plan through', async () => {
    const { user, headers } = await signedIn('free');
    const results = await Promise.all([
      call('POST', '/api/domains', headers, { name: 'race-a.example.com' }),
      call('POST', '/api/domains', headers, { name: 'race-b.example.com' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    const { n } = await h.db.selectFrom('domains').select(sql<number>`count(*)::int`.as('n')).where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(n).toBe(1);
  });

  it("lets exactly the plan's five of twenty simultaneous adds through, the rest refused with the limit's answer", async () => {
    const { user, headers } = await signedIn('standard');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', '/api/domains', headers, { name: `crowd-${i}.example.com` })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(15);
    for (const res of refused) expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', message: domainLimitMessage('standard') });
    const { n } = await h.db.selectFrom('domains').select(sql<number>`count(*)::int`.as('n')).where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(n).toBe(5);
  });

  it('restores a name deleted within 90 days instead of adding it (restored: true, history kept)', async () => {
    const { user, headers } = await signedIn('free');
    const old = await h.f.domain({ userId: user.id, name: 'back.example.com', deletedDaysAgo: 10 });
    await h.f.completedScan(old.id);
    const res = await call('POST', '/api/domains', headers, { name: 'back.example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ restored: true, scanId: null, message: 'back.example.com has been restored to your active domains', domain: { id: old.id, isDeleted: false, deletedAt: null, scanCount: 1 } });
  });

  it('adds afresh a name whose deletion is past the window (the old row is purged now)', async () => {
    const { user, headers } = await signedIn('free');
    const old = await h.f.domain({ userId: user.id, name: 'fresh.example.com', deletedDaysAgo: 100 });
    const res = await call('POST', '/api/domains', headers, { name: 'fresh.example.com' });
    expect(res.statusCode).toBe(201);
    expect(res.json().domain.id).not.toBe(old.id);
    expect(await h.db.selectFrom('domains').select('id').where('id', '=', old.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('GET /api/domains/{id} and /by-name/{name}', () => {
  it('answers the domain by id and by name', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id, name: 'get.example.com' });
    const byId = await call('GET', `/api/domains/${d.id}`, headers);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ id: d.id, name: 'get.example.com' });
    const byName = await call('GET', '/api/domains/by-name/GET.example.com', headers);
    expect(byName.statusCode).toBe(200);
    expect(byName.json().id).toBe(d.id);
  });

  it.each(['abc', '0', '-3', '1.5', '2147483648', '99999999999', '%00'])('answers 400 "Invalid id" for id %s', async (id) => {
    const { headers } = await signedIn();
    const res = await call('GET', `/api/domains/${id}`, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid id' });
  });

  it('answers 400 with the domain message for a bad name', async () => {
    const { headers } = await signedIn();
    const res = await call('GET', '/api/domains/by-name/not_a_domain', headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.domainInvalid);
  });

  it.each(['free', 'onetime'])('answers 403 on %s to the by-name reads of the detail page, while the by-id card reads stay open', async (plan) => {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id, name: 'free-detail.example.com' });
    await h.f.completedScan(d.id);
    for (const url of ['/api/domains/by-name/free-detail.example.com', '/api/domains/name/free-detail.example.com/checks', '/api/domains/name/free-detail.example.com/dns-records']) {
      const res = await call('GET', url, headers);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: DOMAIN_DETAIL_PLAN_MESSAGE });
    }
    // The gate comes before the lookup: a missing name is refused the same way.
    expect((await call('GET', '/api/domains/by-name/nobody.example.com', headers)).statusCode).toBe(403);
    // The free dashboard's card reads by id.
    expect((await call('GET', `/api/domains/${d.id}`, headers)).statusCode).toBe(200);
    expect((await call('GET', `/api/domains/${d.id}/checks`, headers)).json()).toHaveLength(checkTypes.length);
  });

  it("answers another user's domain, a deleted one and the largest id, beyond any row, exactly like a missing one", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id, name: 'theirs.example.com' });
    const { user, headers } = await signedIn();
    const deleted = await h.f.domain({ userId: user.id, deletedDaysAgo: 1 });
    await expectSameAsMissing('GET', `/api/domains/${theirs.id}`, '/api/domains/2147483000', headers);
    await expectSameAsMissing('GET', `/api/domains/${deleted.id}`, '/api/domains/2147483647', headers);
    await expectSameAsMissing('GET', '/api/domains/by-name/theirs.example.com', '/api/domains/by-name/nobody.example.com', headers);
    expect((await call('GET', '/api/domains/2147483000', headers)).json()).toMatchObject({ code: 'NOT_FOUND', message: DOMAIN_NOT_FOUND });
  });
});

describe('DELETE /api/domains/{id}', () => {
  it('soft-deletes: gone from the list, unscheduled, listed as deleted, history kept', async () => {
    const { user, headers } = await signedIn('basic');
    const d = await h.f.domain({ userId: user.id, name: 'gone.example.com', nextScanAt: new Date() });
    await h.f.completedScan(d.id);
    const res = await call('DELETE', `/api/domains/${d.id}`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'gone.example.com has been removed from monitoring. Data will be retained for 90 days.' });

    const row = await h.db.selectFrom('domains').select(['isDeleted', 'deletedAt', 'nextScanAt']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ isDeleted: true, deletedAt: expect.any(Date), nextScanAt: null });
    expect((await call('GET', '/api/domains', headers)).json()).toEqual([]);
    expect((await call('GET', '/api/domains/deleted', headers)).json()[0]).toMatchObject({ id: d.id, scanCount: 1 });
    expect((await call('DELETE', `/api/domains/${d.id}`, headers)).statusCode).toBe(404);
  });

  it("answers 400 for a bad id and 404 for another user's domain", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    const { headers } = await signedIn();
    expect((await call('DELETE', '/api/domains/x', headers)).json()).toMatchObject({ message: 'Invalid id' });
    await expectSameAsMissing('DELETE', `/api/domains/${theirs.id}`, '/api/domains/2147483001', headers);
    expect((await h.db.selectFrom('domains').select('isDeleted').where('id', '=', theirs.id).executeTakeFirstOrThrow()).isDeleted).toBe(false);
  });
});

describe('POST /api/domains/restore', () => {
  it('brings a deletion back with its history and schedules it per plan', async () => {
    const { user, headers } = await signedIn('standard');
    const d = await h.f.domain({ userId: user.id, name: 'restore.example.com', deletedDaysAgo: 60 });
    await h.f.completedScan(d.id, { statuses: { spf: 'warning' } });
    const res = await call('POST', '/api/domains/restore', headers, { name: ' Restore.Example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'restore.example.com has been restored to your active domains', domain: { id: d.id, isDeleted: false, deletedAt: null, nextScanAt: expect.any(String) } });
    const checks = await call('GET', `/api/domains/${d.id}/checks`, headers);
    expect(checks.json()).toHaveLength(checkTypes.length);
    expect(checks.json()[0]).toMatchObject({ type: 'spf', status: 'warning' });
    const history = await call('GET', '/api/domain-checks/history', headers);
    expect(history.json()[0].scans).toHaveLength(1);
  });

  it('answers 404 for a deletion past 90 days, an unknown name and another user\'s deletion; 409 for an active one', async () => {
    const { user, headers } = await signedIn();
    await h.f.domain({ userId: user.id, name: 'expired.example.com', deletedDaysAgo: 91 });
    await h.f.domain({ userId: user.id, name: 'active.example.com' });
    const owner = await h.f.user();
    await h.f.domain({ userId: owner.id, name: 'theirs-deleted.example.com', deletedDaysAgo: 1 });

    for (const name of ['expired.example.com', 'unknown.example.com', 'theirs-deleted.example.com']) {
      const res = await call('POST', '/api/domains/restore', headers, { name });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: DOMAIN_NOT_RESTORABLE });
    }
    const active = await call('POST', '/api/domains/restore', headers, { name: 'active.example.com' });
    expect(active.statusCode).toBe(409);
    expect(active.json().message).toBe(DOMAIN_EXISTS);
  });

  it('answers 400 with the exact message for a bad name', async () => {
    const { headers } = await signedIn();
    const res = await call('POST', '/api/domains/restore', headers, { name: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.domainMin);
  });

  it('refuses to leave more active domains than the plan allows (plan downgraded since)', async () => {
    const { user, headers } = await signedIn('free');
    await h.f.domain({ userId: user.id });
    await h.f.domain({ userId: user.id, name: 'was-paid.example.com', deletedDaysAgo: 5 });
    const res = await call('POST', '/api/domains/restore', headers, { name: 'was-paid.example.com' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_LIMIT', requiresUpgrade: true });
  });
});
