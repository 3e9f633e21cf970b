import {
  DOMAIN_NOT_FOUND,
  domainHistoryAnswer,
  HISTORY_DAYS_DEFAULT,
  HISTORY_DOMAIN_PAGE_DEFAULT,
  HISTORY_OVERVIEW_MAX,
  HISTORY_PAGE_DEFAULT,
  HISTORY_PAGE_MAX,
  HISTORY_PLAN_MESSAGE,
  historyDaysAnswer,
  scanHistoryDays,
  type HistoryDomain,
} from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersLikeMissing, startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

async function signedIn(plan = 'advanced') {
  const user = await h.f.user(plan);
  return { user, headers: await h.auth(user) };
}

async function expectSameAsMissing(ownUrl: string, missingUrl: string, headers: Record<string, string>) {
  const other = await expectAnswersLikeMissing(h, { ownUrl, missingUrl, headers });
  expect(other.json()).toMatchObject({ code: 'NOT_FOUND', message: DOMAIN_NOT_FOUND });
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR);
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** A domain with `count` completed scans one hour apart, the newest an hour ago; their ids newest first. */
async function domainWithScans(userId: number, count: number) {
  const d = await h.f.domain({ userId });
  const oldest = await h.f.completedScan(d.id, { at: hoursAgo(count) });
  const copies = await h.f.scanCopies(
    oldest,
    Array.from({ length: count - 1 }, (_, i) => hoursAgo(count - 1 - i)),
  );
  return { domain: d, ids: [oldest, ...copies].reverse() };
}

/** The history page of one domain (the answer holds just that card). */
async function page(query: string, headers: Record<string, string>): Promise<HistoryDomain> {
  const res = await get(`/api/domain-checks/history?${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  const cards = domainHistoryAnswer.parse(res.json());
  expect(cards).toHaveLength(1);
  return cards[0]!;
}

/** Every scan id of a domain, following `nextCursor` from its first page; `between` runs after each page. */
async function walk(domainId: number, limit: number, headers: Record<string, string>, between?: (n: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const card = await page(`domainId=${domainId}&limit=${limit}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`, headers);
    expect(card.scans.length).toBeLessThanOrEqual(limit);
    ids.push(...card.scans.map((s) => s.id));
    cursor = card.nextCursor;
    pages++;
    if (between) await between(pages);
  } while (cursor !== null);
  return { ids, pages };
}

describe('GET /api/domain-checks/history, paged', () => {
  it('gives every active domain its newest page and a cursor; deleted ones carry no scans and no cursor', async () => {
    const { user, headers } = await signedIn();
    const long = await domainWithScans(user.id, 25);
    const short = await domainWithScans(user.id, 3);
    const gone = await domainWithScans(user.id, 30);
    await h.app.inject({ method: 'DELETE', url: `/api/domains/${gone.domain.id}`, headers });

    const res = await get('/api/domain-checks/history', headers);
    expect(res.statusCode).toBe(200);
    const cards = new Map(domainHistoryAnswer.parse(res.json()).map((c) => [c.id, c]));
    expect(cards.get(long.domain.id)!.scans.map((s) => s.id)).toEqual(long.ids.slice(0, HISTORY_PAGE_DEFAULT));
    expect(cards.get(long.domain.id)!.nextCursor).toEqual(expect.any(String));
    expect(cards.get(short.domain.id)).toMatchObject({ nextCursor: null });
    expect(cards.get(short.domain.id)!.scans.map((s) => s.id)).toEqual(short.ids);
    expect(cards.get(gone.domain.id)).toMatchObject({ isDeleted: true, scans: [], nextCursor: null });

    // `limit` sizes every domain's page, up to HISTORY_OVERVIEW_MAX without `domainId`.
    const five = domainHistoryAnswer.parse((await get('/api/domain-checks/history?limit=5', headers)).json());
    expect(five.find((c) => c.id === long.domain.id)!.scans).toHaveLength(5);
    const capped = domainHistoryAnswer.parse((await get(`/api/domain-checks/history?limit=${HISTORY_PAGE_MAX}`, headers)).json());
    expect(capped.find((c) => c.id === long.domain.id)!.scans.map((s) => s.id)).toEqual(long.ids.slice(0, HISTORY_OVERVIEW_MAX));

    // The overview's cursor continues that domain's history (by itself or with its `domainId`).
    const cursor = cards.get(long.domain.id)!.nextCursor!;
    const next = await page(`domainId=${long.domain.id}&before=${encodeURIComponent(cursor)}`, headers);
    expect(next.scans.map((s) => s.id)).toEqual(long.ids.slice(HISTORY_PAGE_DEFAULT));
    expect(next.nextCursor).toBeNull();
    expect((await page(`before=${encodeURIComponent(cursor)}`, headers)).scans.map((s) => s.id)).toEqual(long.ids.slice(HISTORY_PAGE_DEFAULT));
  });

  it(`pages one domain by HISTORY_DOMAIN_PAGE_DEFAULT (${HISTORY_DOMAIN_PAGE_DEFAULT}) with domainId`, async () => {
    const { user, headers } = await signedIn('basic');
    const { domain, ids } = await domainWithScans(user.id, HISTORY_DOMAIN_PAGE_DEFAULT + 5);
    await h.f.domain({ userId: user.id });
    const first = await page(`domainId=${domain.id}`, headers);
    expect(first).toMatchObject({ id: domain.id, isDeleted: false });
    expect(first.scans.map((s) => s.id)).toEqual(ids.slice(0, HISTORY_DOMAIN_PAGE_DEFAULT));
    const second = await page(`domainId=${domain.id}&before=${encodeURIComponent(first.nextCursor!)}`, headers);
    expect(second.scans.map((s) => s.id)).toEqual(ids.slice(HISTORY_DOMAIN_PAGE_DEFAULT));
    expect(second.nextCursor).toBeNull();
  });

  it('walks every scan exactly once, newest first, through ties and microseconds', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const template = await h.f.completedScan(d.id, { at: new Date('2026-01-01T00:00:00Z') });
    // Same millisecond, different microseconds (a Date would read them as equal), and exact ties.
    await h.f.scanCopies(template, [
      '2026-01-02T10:00:00.123456Z',
      '2026-01-02T10:00:00.123457Z',
      '2026-01-02T10:00:00.123458Z',
      '2026-01-02T10:00:00.123457Z',
      '2026-01-02T10:00:00.123457Z',
      '2026-01-03T00:00:00Z',
      '2026-01-03T00:00:00Z',
      '2026-01-03T00:00:00Z',
      '2026-01-04T00:00:00.000001Z',
      '2026-01-04T00:00:00Z',
    ]);
    const expected = (
      await sql<{ id: string }>`select id from scans where domain_id = ${d.id} order by created_at desc, id desc`.execute(h.db)
    ).rows.map((r) => r.id);
    for (const limit of [1, 2, 3, 4]) {
      const { ids, pages } = await walk(d.id, limit, headers);
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / limit));
    }
  });

  it('neither repeats nor skips a scan when new ones arrive between two pages', async () => {
    const { user, headers } = await signedIn();
    const { domain, ids: before } = await domainWithScans(user.id, 12);
    const arrived: string[] = [];
    const { ids } = await walk(domain.id, 5, headers, async () => {
      arrived.push(await h.f.completedScan(domain.id));
    });
    expect(ids).toEqual(before);
    // The new ones head the next walk.
    const again = await walk(domain.id, 5, headers);
    expect(again.ids).toEqual([...arrived.reverse(), ...before]);
  });

  it('bounds the scans by from and to (inclusive), on every page', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const t = (day: number) => new Date(Date.UTC(2026, 0, day, 12));
    const template = await h.f.completedScan(d.id, { at: t(1) });
    const copies = await h.f.scanCopies(template, [2, 3, 4, 5, 6, 7].map(t));
    const from = encodeURIComponent(t(3).toISOString());
    const to = encodeURIComponent(t(6).toISOString());
    const card = await page(`domainId=${d.id}&from=${from}&to=${to}&limit=2`, headers);
    expect(card.scans.map((s) => s.id)).toEqual([copies[4], copies[3]]);
    const rest = await page(`domainId=${d.id}&from=${from}&to=${to}&limit=2&before=${encodeURIComponent(card.nextCursor!)}`, headers);
    expect(rest.scans.map((s) => s.id)).toEqual([copies[2], copies[1]]);
    expect(rest.nextCursor).toBeNull();
    // The overview too.
    const overview = domainHistoryAnswer.parse((await get(`/api/domain-checks/history?from=${from}`, headers)).json());
    expect(overview[0]!.scans.map((s) => s.id)).toEqual([copies[5], copies[4], copies[3], copies[2], copies[1]]);
    const bad = await get(`/api/domain-checks/history?from=${to}&to=${from}`, headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: '`from` must not be after `to`' });
  });

  it('keeps scores and DNS changes on their own scans on a later page', async () => {
    const { user, headers } = await signedIn('standard');
    const d = await h.f.domain({ userId: user.id });
    const times = Array.from({ length: 15 }, (_, i) => hoursAgo(15 - i));
    const ids: string[] = [];
    for (const [i, at] of times.entries()) {
      const scanId = await h.f.completedScan(d.id, { at, statuses: i === 2 ? { dmarc: 'warning' } : {} });
      await h.f.reputation(d.id, 50 + i, { scanId, at });
      ids.push(scanId);
    }
    // The oldest page's third scan (index 2) changed DNS; a daily point re-scored it later.
    await h.f.alert({ userId: user.id, domainId: d.id, type: 'dns_change', scanId: ids[2], details: { changes: [{ summary: 'MX changed' }] } });
    await h.f.dailyReputation(d.id, 99, { at: new Date(), scanId: ids[2]! });
    const first = await page(`domainId=${d.id}&limit=10`, headers);
    expect(first.scans.map((s) => s.score)).toEqual([64, 63, 62, 61, 60, 59, 58, 57, 56, 55]);
    expect(first.scans.every((s) => s.dnsChanges.length === 0)).toBe(true);
    const second = await page(`domainId=${d.id}&limit=10&before=${encodeURIComponent(first.nextCursor!)}`, headers);
    expect(second.scans.map((s) => [s.id, s.score])).toEqual([4, 3, 2, 1, 0].map((i) => [ids[i], 50 + i]));
    expect(second.scans.map((s) => s.dnsChanges)).toEqual([[], [], ['MX changed'], [], []]);
    expect(second.scans[2]).toMatchObject({ health: 'warning', checks: { dmarc: 'warning' } });
  });

  it('answers a page of 200 scans in under 100 KB', async () => {
    const { user, headers } = await signedIn();
    const { domain } = await domainWithScans(user.id, HISTORY_PAGE_MAX + 1);
    const res = await get(`/api/domain-checks/history?domainId=${domain.id}&limit=${HISTORY_PAGE_MAX}`, headers);
    expect(res.statusCode).toBe(200);
    const card = domainHistoryAnswer.parse(res.json())[0]!;
    expect(card.scans).toHaveLength(HISTORY_PAGE_MAX);
    expect(card.nextCursor).not.toBeNull();
    expect(res.body.length).toBeLessThan(100_000);
  });

  it.each([`${HISTORY_PAGE_MAX + 1}`, '0', '-1', 'ten', '1.5', ''])('answers 400 for limit=%s', async (limit) => {
    const { headers } = await signedIn();
    const res = await get(`/api/domain-checks/history?limit=${limit}`, headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid limit' });
  });

  it("shows no scan older than the plan's history, whatever the window asked", async () => {
    for (const plan of ['basic', 'advanced'] as const) {
      const { user, headers } = await signedIn(plan);
      const d = await h.f.domain({ userId: user.id });
      // Just inside basic's 90 days, just outside it, and outside advanced's 395 too.
      const inside = await h.f.completedScan(d.id, { at: new Date(Date.now() - (scanHistoryDays('basic') - 1) * DAY) });
      const outside = await h.f.completedScan(d.id, { at: new Date(Date.now() - (scanHistoryDays('basic') + 1) * DAY) });
      await h.f.completedScan(d.id, { at: new Date(Date.now() - (scanHistoryDays('advanced') + 1) * DAY) });
      const ancient = new Date(Date.now() - 1000 * DAY).toISOString();
      for (const query of [`domainId=${d.id}`, `domainId=${d.id}&from=${ancient}`, '']) {
        const cards = domainHistoryAnswer.parse((await get(`/api/domain-checks/history?${query}`, headers)).json());
        expect(cards[0]!.scans.map((s) => s.id)).toEqual(plan === 'basic' ? [inside] : [inside, outside]);
      }
    }
  });

  it('answers 400 "Invalid cursor" for a malformed, edited or foreign cursor', async () => {
    const { user, headers } = await signedIn();
    const { domain } = await domainWithScans(user.id, 3);
    const other = await domainWithScans(user.id, 3);
    const cursor = (await page(`domainId=${domain.id}&limit=1`, headers)).nextCursor!;
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const [version, id, at, scanId, sum] = text.split('|');
    const reencode = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    const flipped = scanId!.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0'));
    const bad = [
      'not a cursor',
      'x',
      `${cursor}A`,
      cursor.slice(0, -2),
      reencode(`${version}|${id}|${at}|${flipped}|${sum}`),
      reencode(`${version}|${id}|${at!.replace(/^\d{4}-\d{2}/, '2026-13')}|${scanId}|${sum}`),
      reencode(`${version}|${id}|2026-02-31T00:00:00.000000Z|${scanId}|${sum}`),
      reencode(`${version}|${id}|${at}|${scanId}`),
      reencode('{"at":"x"}'),
      'a'.repeat(201),
    ];
    for (const before of bad) {
      const res = await get(`/api/domain-checks/history?domainId=${domain.id}&before=${encodeURIComponent(before)}`, headers);
      expect(res.statusCode, before).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid cursor' });
    }
    // A cursor of one domain is not another's.
    const foreign = await get(`/api/domain-checks/history?domainId=${other.domain.id}&before=${cursor}`, headers);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Invalid cursor');
  });

  it("answers 404 for another user's, a deleted or a missing domainId; 400 for a bad one", async () => {
    const owner = await h.f.user();
    const theirs = await domainWithScans(owner.id, 2);
    const { user, headers } = await signedIn();
    const mine = await domainWithScans(user.id, 2);
    const gone = await h.f.domain({ userId: user.id, deletedDaysAgo: 1 });
    await expectSameAsMissing(`/api/domain-checks/history?domainId=${theirs.domain.id}`, '/api/domain-checks/history?domainId=2147480003', headers);
    await expectSameAsMissing(`/api/domain-checks/history?domainId=${gone.id}`, '/api/domain-checks/history?domainId=2147480003', headers);
    // Another user's cursor: the domain it names is not the caller's.
    const theirCursor = (await page(`domainId=${theirs.domain.id}&limit=1`, await h.auth(owner))).nextCursor!;
    expect((await get(`/api/domain-checks/history?before=${theirCursor}`, headers)).statusCode).toBe(404);
    expect((await get(`/api/domain-checks/history?domainId=${mine.domain.id}&before=${theirCursor}`, headers)).statusCode).toBe(400);
    const bad = await get('/api/domain-checks/history?domainId=abc', headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid id');
  });

  it.each(['free', 'onetime'])('answers 403 with the plan message on %s, whatever the query', async (plan) => {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id });
    for (const url of ['/api/domain-checks/history', `/api/domain-checks/history?domainId=${d.id}&limit=5`, '/api/domain-checks/history?before=x']) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: HISTORY_PLAN_MESSAGE });
    }
  });
});

describe('GET /api/domains/{id}/history/days', () => {
  const today = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
  /** `hour` o'clock UTC, `daysAgo` days before today. */
  const at = (daysAgo: number, hour: number) => new Date(today.getTime() - daysAgo * DAY + hour * HOUR);

  async function timeline(plan: string) {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id });
    // Three days ago: three scans, the last one critical; scores 60 then 65 (the day's last).
    const a = await h.f.completedScan(d.id, { at: at(3, 1) });
    await h.f.reputation(d.id, 60, { scanId: a, at: at(3, 1) });
    await h.f.completedScan(d.id, { at: at(3, 2), statuses: { dkim: 'warning' } });
    const c = await h.f.completedScan(d.id, { at: at(3, 23), statuses: { spf: 'error' }, overallStatus: 'critical' });
    await h.f.reputation(d.id, 65, { scanId: c, at: at(3, 23) });
    // Two days ago nothing; yesterday one scan (warning), no score stored.
    await h.f.completedScan(d.id, { at: at(1, 12), statuses: { dmarc: 'warning' } });
    // Outside the default window, and a scan not completed: neither counts.
    await h.f.completedScan(d.id, { at: at(HISTORY_DAYS_DEFAULT, 12) });
    const queued = await h.f.scan(d.id);
    await sql`update scans set created_at = ${at(1, 13)} where id = ${queued}`.execute(h.db);
    return { user, headers, d };
  }

  it('answers one point per day with completed scans, oldest first: count, last scan health and status, last score', async () => {
    const { headers, d } = await timeline('standard');
    const res = await get(`/api/domains/${d.id}/history/days`, headers);
    expect(res.statusCode, res.body).toBe(200);
    const answer = historyDaysAnswer.parse(res.json());
    expect(answer.from).toBe(utcDay(at(HISTORY_DAYS_DEFAULT - 1, 0)));
    expect(answer.to).toBe(utcDay(today));
    expect(answer.days).toEqual([
      { day: utcDay(at(3, 0)), scans: 3, health: 'critical', overallStatus: 'critical', score: 65 },
      { day: utcDay(at(1, 0)), scans: 1, health: 'warning', overallStatus: 'healthy', score: null },
    ]);
    // An explicit window: yesterday only; then one that reaches the older scan.
    const yesterday = utcDay(at(1, 0));
    expect((await get(`/api/domains/${d.id}/history/days?from=${yesterday}&to=${yesterday}`, headers)).json()).toEqual({
      from: yesterday,
      to: yesterday,
      days: [{ day: yesterday, scans: 1, health: 'warning', overallStatus: 'healthy', score: null }],
    });
    const wide = historyDaysAnswer.parse((await get(`/api/domains/${d.id}/history/days?from=${utcDay(at(HISTORY_DAYS_DEFAULT, 0))}`, headers)).json());
    expect(wide.days.map((p) => p.day)).toEqual([utcDay(at(HISTORY_DAYS_DEFAULT, 0)), utcDay(at(3, 0)), yesterday]);
    // `to` alone: the HISTORY_DAYS_DEFAULT days up to it.
    const upTo = historyDaysAnswer.parse((await get(`/api/domains/${d.id}/history/days?to=${utcDay(at(2, 0))}`, headers)).json());
    expect(upTo).toMatchObject({ from: utcDay(at(HISTORY_DAYS_DEFAULT + 1, 0)), to: utcDay(at(2, 0)) });
    expect(upTo.days.map((p) => p.day)).toEqual([utcDay(at(HISTORY_DAYS_DEFAULT, 0)), utcDay(at(3, 0))]);
  });

  it('answers no scores where the plan shows none', async () => {
    const { headers, d } = await timeline('basic');
    const answer = historyDaysAnswer.parse((await get(`/api/domains/${d.id}/history/days`, headers)).json());
    expect(answer.days.map((p) => [p.scans, p.score])).toEqual([
      [3, null],
      [1, null],
    ]);
  });

  it("has no point before the plan's history", async () => {
    for (const [plan, shown] of [
      ['basic', 1],
      ['standard', 2],
    ] as const) {
      const { user, headers } = await signedIn(plan);
      const d = await h.f.domain({ userId: user.id });
      await h.f.completedScan(d.id, { at: at(scanHistoryDays('basic') + 5, 12) });
      await h.f.completedScan(d.id, { at: at(10, 12) });
      const answer = historyDaysAnswer.parse((await get(`/api/domains/${d.id}/history/days?from=${utcDay(at(120, 0))}`, headers)).json());
      expect(answer.days.map((p) => p.day)).toEqual([utcDay(at(scanHistoryDays('basic') + 5, 0)), utcDay(at(10, 0))].slice(-shown));
    }
  });

  it('answers 400 for a window over the limit, reversed or malformed, and a bad id', async () => {
    const { user, headers } = await signedIn();
    const d = await h.f.domain({ userId: user.id });
    const ok = await get(`/api/domains/${d.id}/history/days?from=2025-01-01&to=2026-02-04`, headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ from: '2025-01-01', to: '2026-02-04', days: [] });
    const cases: Array<[string, string]> = [
      ['from=2025-01-01&to=2026-02-05', 'The window spans at most 400 days'],
      [`from=${utcDay(at(400, 0))}`, 'The window spans at most 400 days'],
      ['from=2026-03-02&to=2026-03-01', '`from` must not be after `to`'],
      [`from=${utcDay(at(-2, 0))}`, '`from` must not be after `to`'],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/domains/${d.id}/history/days?${query}`, headers);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    for (const query of ['from=2026-13-01', 'to=yesterday', 'from=2026-1-1']) expect((await get(`/api/domains/${d.id}/history/days?${query}`, headers)).statusCode, query).toBe(400);
    const bad = await get('/api/domains/abc/history/days', headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid id');
  });

  it("answers 404 for another user's, a deleted or a missing domain", async () => {
    const owner = await h.f.user();
    const theirs = await h.f.domain({ userId: owner.id });
    await h.f.completedScan(theirs.id);
    const { user, headers } = await signedIn();
    const gone = await h.f.domain({ userId: user.id, deletedDaysAgo: 1 });
    await expectSameAsMissing(`/api/domains/${theirs.id}/history/days`, '/api/domains/2147480004/history/days', headers);
    await expectSameAsMissing(`/api/domains/${gone.id}/history/days`, '/api/domains/2147480004/history/days', headers);
  });

  it.each(['free', 'onetime'])('answers 403 with the plan message on %s', async (plan) => {
    const { user, headers } = await signedIn(plan);
    const d = await h.f.domain({ userId: user.id });
    const res = await get(`/api/domains/${d.id}/history/days`, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: HISTORY_PLAN_MESSAGE });
  });
});
