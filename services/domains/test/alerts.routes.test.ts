import { ALERT_NOT_FOUND, NOT_AUTHENTICATED, type Alert } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERTS_PLAN_REQUIRED } from '../src/alerts/alert.service.js';
import { startToolsHarness, type ToolsHarness } from './tools-harness.js';

let h: ToolsHarness;
beforeAll(async () => {
  h = await startToolsHarness();
});
afterAll(async () => {
  await h.close();
});

/** An advanced user with one domain and three alerts an hour apart (the last one read). */
async function advancedUserWithAlerts() {
  const user = await h.factory.user('advanced');
  const domain = await h.factory.domain(user.id);
  const now = Date.now();
  const oldest = await h.factory.alert(domain, user.id, { createdAt: new Date(now - 3 * 3_600_000), title: 'oldest' });
  const middle = await h.factory.alert(domain, user.id, { createdAt: new Date(now - 2 * 3_600_000), title: 'middle', severity: 'critical' });
  const newest = await h.factory.alert(domain, user.id, { createdAt: new Date(now - 3_600_000), title: 'newest', isRead: true });
  return { user, domain, alerts: { oldest, middle, newest }, headers: await h.login(user) };
}

describe('GET /api/alerts', () => {
  it('answers the user’s alerts newest first, with the domain name and every field the bell reads', async () => {
    const { domain, alerts, headers } = await advancedUserWithAlerts();
    // Someone else's alert never shows.
    const other = await h.factory.user('advanced');
    await h.factory.alert(await h.factory.domain(other.id), other.id);

    const res = await h.app.inject({ method: 'GET', url: '/api/alerts', headers });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Alert[];
    expect(body.map((a) => a.id)).toEqual([alerts.newest.id, alerts.middle.id, alerts.oldest.id]);
    expect(body[1]).toMatchObject({
      id: alerts.middle.id,
      domainId: domain.id,
      domainName: domain.name,
      type: 'ssl_expiring',
      severity: 'critical',
      title: 'middle',
      message: 'The certificate expires in 10 days.',
      details: { daysLeft: 10 },
      isRead: false,
      checkId: null,
      resolvedAt: null,
    });
    expect(new Date(body[1]!.createdAt).toISOString()).toBe(body[1]!.createdAt);
    expect(body[0]!.isRead).toBe(true);
  });

  it('takes limit and unreadOnly', async () => {
    const { alerts, headers } = await advancedUserWithAlerts();
    const limited = await h.app.inject({ method: 'GET', url: '/api/alerts?limit=1', headers });
    expect((limited.json() as Alert[]).map((a) => a.id)).toEqual([alerts.newest.id]);
    const unread = await h.app.inject({ method: 'GET', url: '/api/alerts?unreadOnly=true', headers });
    expect((unread.json() as Alert[]).map((a) => a.id)).toEqual([alerts.middle.id, alerts.oldest.id]);
  });

  it('leaves out alerts of removed domains', async () => {
    const user = await h.factory.user('advanced');
    await h.factory.alert(await h.factory.domain(user.id, { isDeleted: true }), user.id);
    const kept = await h.factory.alert(await h.factory.domain(user.id), user.id);
    const res = await h.app.inject({ method: 'GET', url: '/api/alerts', headers: await h.login(user) });
    expect((res.json() as Alert[]).map((a) => a.id)).toEqual([kept.id]);
  });

  it('answers an empty list for a user without alerts', async () => {
    const user = await h.factory.user('advanced');
    const res = await h.app.inject({ method: 'GET', url: '/api/alerts', headers: await h.login(user) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each([
    ['limit=0', 'Invalid limit'],
    ['limit=101', 'Invalid limit'],
    ['limit=abc', 'Invalid limit'],
    ['unreadOnly=yes', 'unreadOnly must be true or false'],
  ])('refuses %s with 400 "%s"', async (query, message) => {
    const user = await h.factory.user('advanced');
    const res = await h.app.inject({ method: 'GET', url: `/api/alerts?${query}`, headers: await h.login(user) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it.each(['free', 'onetime', 'basic', 'standard'])('refuses the %s plan with 403 and the upgrade flag', async (plan) => {
    const user = await h.factory.user(plan);
    await h.factory.alert(await h.factory.domain(user.id), user.id);
    const res = await h.app.inject({ method: 'GET', url: '/api/alerts', headers: await h.login(user) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: ALERTS_PLAN_REQUIRED, requiresUpgrade: true });
  });

  it('answers 401 without a login', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/alerts' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  });
});

describe('POST /api/alerts/{id}/mark-read', () => {
  it('marks one alert read and answers it', async () => {
    const { alerts, headers } = await advancedUserWithAlerts();
    const res = await h.app.inject({ method: 'POST', url: `/api/alerts/${alerts.middle.id}/mark-read`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, alert: { id: alerts.middle.id, isRead: true } });
    const unread = await h.app.inject({ method: 'GET', url: '/api/alerts?unreadOnly=true', headers });
    expect((unread.json() as Alert[]).map((a) => a.id)).toEqual([alerts.oldest.id]);
  });

  it('is idempotent on an alert already read', async () => {
    const { alerts, headers } = await advancedUserWithAlerts();
    const res = await h.app.inject({ method: 'POST', url: `/api/alerts/${alerts.newest.id}/mark-read`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, alert: { isRead: true } });
  });

  it('answers 404 for another user’s alert, exactly like a missing one, and leaves it unread', async () => {
    const { alerts } = await advancedUserWithAlerts();
    const stranger = await h.factory.user('advanced');
    const headers = await h.login(stranger);
    const theirs = await h.app.inject({ method: 'POST', url: `/api/alerts/${alerts.middle.id}/mark-read`, headers });
    const missing = await h.app.inject({ method: 'POST', url: '/api/alerts/99999999/mark-read', headers });
    for (const res of [theirs, missing]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: ALERT_NOT_FOUND });
    }
    const row = await h.db.selectFrom('domainAlerts').select('isRead').where('id', '=', alerts.middle.id).executeTakeFirstOrThrow();
    expect(row.isRead).toBe(false);
  });

  // Ids beyond Postgres integer were a 500 (the query's out-of-range error) before the contract's range.
  it.each(['abc', '0', '-3', '1.5', '2147483648', '99999999999', '1e3'])('refuses the id %s with 400 "Invalid id"', async (id) => {
    const user = await h.factory.user('advanced');
    const res = await h.app.inject({ method: 'POST', url: `/api/alerts/${id}/mark-read`, headers: await h.login(user) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid id' });
  });

  it('refuses a plan below advanced with 403', async () => {
    const user = await h.factory.user('standard');
    const alert = await h.factory.alert(await h.factory.domain(user.id), user.id);
    const res = await h.app.inject({ method: 'POST', url: `/api/alerts/${alert.id}/mark-read`, headers: await h.login(user) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: ALERTS_PLAN_REQUIRED });
  });

  it('answers 401 without a login', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/alerts/1/mark-read' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/alerts/mark-all-read', () => {
  it('marks every unread alert of the user read and answers how many, touching nobody else’s', async () => {
    const { headers } = await advancedUserWithAlerts();
    const other = await h.factory.user('advanced');
    const theirs = await h.factory.alert(await h.factory.domain(other.id), other.id);

    const res = await h.app.inject({ method: 'POST', url: '/api/alerts/mark-all-read', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, updated: 2 });
    const after = await h.app.inject({ method: 'GET', url: '/api/alerts?unreadOnly=true', headers });
    expect(after.json()).toEqual([]);
    const again = await h.app.inject({ method: 'POST', url: '/api/alerts/mark-all-read', headers });
    expect(again.json()).toEqual({ success: true, updated: 0 });

    const row = await h.db.selectFrom('domainAlerts').select('isRead').where('id', '=', theirs.id).executeTakeFirstOrThrow();
    expect(row.isRead).toBe(false);
  });

  it('refuses a plan below advanced with 403', async () => {
    const user = await h.factory.user('basic');
    const res = await h.app.inject({ method: 'POST', url: '/api/alerts/mark-all-read', headers: await h.login(user) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: ALERTS_PLAN_REQUIRED, requiresUpgrade: true });
  });

  it('answers 401 without a login', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/alerts/mark-all-read' });
    expect(res.statusCode).toBe(401);
  });
});
