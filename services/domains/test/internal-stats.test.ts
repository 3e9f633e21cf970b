import { ADMIN_ONLY_MESSAGE, domainsInternalStatsSchema, serviceStatsSchema } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { SystemCounter, SystemDistinct } from '@sendwell/server-kit';
import { startSmtpServer, type TestSmtpServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_COUNT_BELOW } from '../src/stats/system-figures.repository.js';
import { startHarness, type Harness } from './fixtures.js';

const ADMIN = 'admin@sendwell.test';
let h: Harness;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await startHarness({ ADMIN_EMAIL: ADMIN, SMTP_URL: smtp.url });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

let admin: Record<string, string> | undefined;
/** The administrator's headers (one user holds the address). */
async function administrator() {
  if (admin) return admin;
  const user = await h.f.user('advanced');
  await h.db.updateTable('users').set({ email: ADMIN, emailVerified: true }).where('id', '=', user.id).execute();
  admin = await h.auth(user);
  return admin;
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

  it('reads scans, alerts and deliveries from the running counters, counts domains and users exactly, and reads every queue', async () => {
    const headers = await administrator();
    const before = domainsInternalStatsSchema.parse((await systemStats(headers)).json()).system;
    // This file's Redis prefix is its own: no scan was counted yet.
    expect(before.scans).toMatchObject({ domainsScannedToday: 0, avgScanSeconds: 0, failedLast24h: 0 });

    const owner = await h.f.user('standard');
    const domain = await h.f.domain({ userId: owner.id });
    await h.db.updateTable('domains').set({ nextScanAt: new Date() }).where('id', '=', domain.id).execute();
    // The scan-level figures are the counters the writers keep, not rows: the scanner is another
    // process, so this test does what its scan-domain handler does once a scan is written
    // (completed +1, its seconds, the domain among today's) and what its final-failure hook does
    // (failed +1), through the same SystemCounters calls on the same Redis and prefix.
    // services/scanner/test/queue/system-counters.test.ts runs the real worker.
    await h.f.completedScan(domain.id);
    await h.deps.counters.record({ [SystemCounter.ScansCompleted]: 1, [SystemCounter.ScanSeconds]: 3 }, { [SystemDistinct.DomainsScanned]: domain.id });
    await h.f.completedScan(domain.id);
    await h.deps.counters.record({ [SystemCounter.ScansCompleted]: 1, [SystemCounter.ScanSeconds]: 5.5 }, { [SystemDistinct.DomainsScanned]: domain.id });
    const failed = await h.f.scan(domain.id);
    await h.db.updateTable('scans').set({ status: 'failed' }).where('id', '=', failed).execute();
    await h.deps.counters.add(SystemCounter.ScansFailed);
    // Scans running now are still rows (the partial index of unfinished scans).
    const running = await h.f.scan(domain.id);
    await h.db.updateTable('scans').set({ status: 'running' }).where('id', '=', running).execute();
    // An alert raised, counted as the scan engine's publishAlertEvents counts it...
    const alert = await h.f.alert({ userId: owner.id, domainId: domain.id });
    await h.deps.counters.add(SystemCounter.AlertsRaised, 1);
    // ... and its e-mail delivered by this service's own NotifyService, which counts the delivery sent.
    await h.deps.services.notify.fanOut(alert.id, 'raised');
    expect(await h.deps.services.notify.deliver(alert.id, 'raised', 'email', true)).toEqual({ sent: true });
    // A delivery already sent is not sent, nor counted, again.
    expect(await h.deps.services.notify.deliver(alert.id, 'raised', 'email', true)).toEqual({ sent: false, skipped: 'already-sent' });

    const res = await systemStats(headers);
    expect(res.statusCode).toBe(200);
    const after = domainsInternalStatsSchema.parse(res.json()).system;
    expect(after.scans).toEqual({ active: before.scans.active + 1, domainsScannedToday: 1, avgScanSeconds: 4.25, failedLast24h: 1 });
    expect(after.alerts).toEqual({ raisedLast24h: before.alerts.raisedLast24h + 1, deliveredLast24h: before.alerts.deliveredLast24h + 1 });
    // Small tables: exact counts.
    expect(after.domains).toEqual({ total: before.domains.total + 1, scheduled: before.domains.scheduled + 1 });
    expect(after.users.total).toBe(before.users.total + 1);
    expect(after.users.premium).toBe(before.users.premium + 1);
    expect(after.queues.map((q) => q.name).sort()).toEqual(['intake', 'maintenance', 'notify', 'report', 'scan']);
  });

  it("answers the planner's estimates instead of counting once a table is large", async () => {
    const headers = await administrator();
    // Every plan held more than once, as on a large table: ANALYZE lists them all among the common values.
    for (const plan of ['free', 'free', 'standard', 'advanced']) await h.f.user(plan);
    const exact = domainsInternalStatsSchema.parse((await systemStats(headers)).json()).system;
    await sql`analyze users`.execute(h.db);
    // What ANALYZE would write for a large table, without writing its rows (this database is the file's own).
    await sql`update pg_class set reltuples = ${EXACT_COUNT_BELOW * 10} where oid = 'users'::regclass`.execute(h.db);
    try {
      const estimated = domainsInternalStatsSchema.parse((await systemStats(headers)).json()).system;
      expect(estimated.users.total).toBe(EXACT_COUNT_BELOW * 10);
      // The paid plans' share of the sampled rows, scaled to the estimated table.
      expect(estimated.users.premium).toBe(Math.round((EXACT_COUNT_BELOW * 10 * exact.users.premium) / exact.users.total));
      // The other tables are still small: exact.
      expect(estimated.domains).toEqual(exact.domains);
    } finally {
      await sql`analyze users`.execute(h.db);
    }
    expect(domainsInternalStatsSchema.parse((await systemStats(headers)).json()).system.users).toEqual(exact.users);
  });

  it('answers 403 to anyone else and 401 without a session', async () => {
    const res = await systemStats(await h.auth(await h.f.user('advanced')));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
    expect((await systemStats()).statusCode).toBe(401);
  });

});
