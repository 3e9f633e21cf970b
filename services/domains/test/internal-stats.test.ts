import { ADMIN_ONLY_MESSAGE, domainsInternalStatsSchema, serviceStatsSchema } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';

const ADMIN = 'admin@sendwell.test';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ADMIN_EMAIL: ADMIN });
});
afterAll(() => h.close());

async function administrator() {
  const user = await h.f.user('advanced');
  await h.db.updateTable('users').set({ email: ADMIN, emailVerified: true }).where('id', '=', user.id).execute();
  return h.auth(user);
}
const systemStats = (headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url: '/internal/system-stats', headers });

describe('GET /internal/stats', () => {
  it("answers the process's pool, recent statement times and memory", async () => {
    await h.app.inject({ method: 'GET', url: '/health/ready' });
    const res = await h.app.inject({ method: 'GET', url: '/internal/stats' });
    expect(res.statusCode).toBe(200);
    const stats = serviceStatsSchema.parse(res.json());
    expect(stats).toMatchObject({ service: 'domains', pool: { max: 4 } });
    expect(stats.queries!.count).toBeGreaterThan(0);
    expect(stats.process.rssMB).toBeGreaterThan(10);
  });
});

describe('GET /internal/system-stats', () => {
  it('answers 403 to the administrator address before it is verified', async () => {
    const user = await h.f.user('advanced');
    await h.db.updateTable('users').set({ email: ADMIN, emailVerified: false }).where('id', '=', user.id).execute();
    expect((await systemStats(await h.auth(user))).statusCode).toBe(403);
    await h.db.updateTable('users').set({ email: `was-${ADMIN}` }).where('id', '=', user.id).execute();
  });

  it('counts scans, domains, users and alerts, and reads every queue, for the administrator', async () => {
    const headers = await administrator();
    const before = domainsInternalStatsSchema.parse((await systemStats(headers)).json()).system;

    const owner = await h.f.user('standard');
    const domain = await h.f.domain({ userId: owner.id });
    await h.f.completedScan(domain.id);
    const failed = await h.f.scan(domain.id);
    await h.db.updateTable('scans').set({ status: 'failed' }).where('id', '=', failed).execute();
    const running = await h.f.scan(domain.id);
    await h.db.updateTable('scans').set({ status: 'running' }).where('id', '=', running).execute();
    await h.f.alert({ userId: owner.id, domainId: domain.id });

    const res = await systemStats(headers);
    expect(res.statusCode).toBe(200);
    const after = domainsInternalStatsSchema.parse(res.json()).system;
    expect(after.scans.active).toBe(before.scans.active + 1);
    expect(after.scans.failedLast24h).toBe(before.scans.failedLast24h + 1);
    expect(after.scans.domainsScannedToday).toBe(before.scans.domainsScannedToday + 1);
    expect(after.domains.total).toBe(before.domains.total + 1);
    expect(after.users.total).toBe(before.users.total + 1);
    expect(after.users.premium).toBe(before.users.premium + 1);
    expect(after.alerts.raisedLast24h).toBe(before.alerts.raisedLast24h + 1);
    expect(after.queues.map((q) => q.name).sort()).toEqual(['intake', 'maintenance', 'notify', 'report', 'scan']);
  });

  it('answers 403 to anyone else and 401 without a session', async () => {
    const res = await systemStats(await h.auth(await h.f.user('advanced')));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
    expect((await systemStats()).statusCode).toBe(401);
  });

});
