import { checkTypes, type PlanType } from '@sendwell/contracts';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanRecorder, ScanResults } from '@sendwell/scan-engine';
import { recordScan } from '../../src/scan/record-scan.js';
import { checkRow, factory, outcomeData, snapshotData } from './factory.js';

let testDb: TestDb;
let recorder: ScanRecorder;
let f: ReturnType<typeof factory>;
let now = new Date('2026-11-21T12:00:00.000Z');

beforeAll(async () => {
  testDb = await createTestDb();
  recorder = new ScanRecorder(testDb.db, () => now);
  f = factory(testDb.db);
});

afterAll(async () => {
  await testDb.close();
});

const DAY = 86_400_000;
const sslExpiring = (days: number, expiresAt = new Date(now.getTime() + days * DAY).toISOString()) =>
  checkRow('ssl_certificate', days <= 30 ? 'warning' : 'valid', { expiresAt, daysRemaining: days, issuer: 'Test CA' });

async function alertsOf(domainId: number) {
  return testDb.db
    .selectFrom('domainAlerts')
    .select(['id', 'type', 'severity', 'details', 'checkId', 'userId'])
    .where('domainId', '=', domainId)
    .orderBy('id')
    .execute();
}

describe('ScanRecorder.record', () => {
  it('writes a scan once: the same scan id again (or at the same time) writes nothing more', async () => {
    const domain = await f.domain({ plan: 'standard' });
    const scanId = await f.scan(domain.id);
    const outcome = outcomeData();

    const [a, b] = await Promise.all([recordScan(recorder, scanId, outcome), recordScan(recorder, scanId, outcome)]);
    const third = await recordScan(recorder, scanId, outcome);
    expect([a.written, b.written].sort()).toEqual([false, true]);
    expect(third).toEqual({ written: false, reason: 'already-completed' });

    const counts = await f.counts(domain.id);
    expect(counts).toMatchObject({ checks: checkTypes.length, reputation: 1, scanCount: 1, status: 'healthy' });
    const scan = await testDb.db.selectFrom('scans').select(['status', 'overallStatus', 'completedAt']).where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(scan).toMatchObject({ status: 'completed', overallStatus: 'healthy' });
    expect(await new ScanResults(testDb.db).snapshotOfScan(scanId)).toMatchObject({ a: ['192.0.2.1'], spfRecord: 'v=spf1 mx -all' });
  });

  it('rolls everything back when one write fails: no checks, no count, scan not completed', async () => {
    const domain = await f.domain({ plan: 'standard' });
    const scanId = await f.scan(domain.id);
    const outcome = outcomeData();
    // Violates reputation_score_check, the last insert but one: everything before it must vanish.
    outcome.score = { ...outcome.score, score: 150 };

    await expect(recordScan(recorder, scanId, outcome)).rejects.toThrow(/reputation_score_check/);
    expect(await f.counts(domain.id)).toMatchObject({ checks: 0, reputation: 0, alerts: 0, scanCount: 0, status: 'pending', lastScan: null });
    const scan = await testDb.db.selectFrom('scans').select(['status', 'dnsSnapshotId', 'checkResultIds']).where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(scan).toEqual({ status: 'queued', dnsSnapshotId: null, checkResultIds: null });
    const stored = await testDb.db.selectFrom('checkResults').select('id').where('domainId', '=', domain.id).execute();
    expect(stored).toEqual([]);

    // And the scan can still be written afterwards.
    expect((await recordScan(recorder, scanId, outcomeData())).written).toBe(true);
    expect(await f.counts(domain.id)).toMatchObject({ checks: checkTypes.length, scanCount: 1 });
  });

  it.each<[PlanType | 'enterprise', number | null]>([
    ['free', null],
    ['onetime', null],
    ['basic', 4 * 3_600_000],
    ['standard', 3_600_000],
    ['advanced', 15 * 60_000],
    ['enterprise', null],
  ])('schedules the next scan per plan: %s', async (plan, intervalMs) => {
    const domain = await f.domain({ plan, nextScanAt: new Date(now.getTime() - 1000) });
    await recordScan(recorder, await f.scan(domain.id), outcomeData());
    const { nextScanAt } = await f.counts(domain.id);
    expect(nextScanAt === null ? null : nextScanAt.getTime() - now.getTime()).toBe(intervalMs);
  });

  it('writes a scan of a domain paused above its plan’s limit but schedules no next one', async () => {
    const domain = await f.domain({ plan: 'advanced', nextScanAt: new Date(now.getTime() - 1000) });
    await testDb.db.updateTable('domains').set({ scanPaused: true }).where('id', '=', domain.id).execute();
    expect((await recordScan(recorder, await f.scan(domain.id), outcomeData())).written).toBe(true);
    expect(await f.counts(domain.id)).toMatchObject({ scanCount: 1, nextScanAt: null });
  });

  it('stores reputation history with the previous score and the trend', async () => {
    const domain = await f.domain({ plan: 'standard' });
    await recordScan(recorder, await f.scan(domain.id), outcomeData());
    await recordScan(recorder, await f.scan(domain.id), outcomeData({ ssl_certificate: checkRow('ssl_certificate', 'error', { daysRemaining: 40 }) }));
    await recordScan(recorder, await f.scan(domain.id), outcomeData({ dmarc: checkRow('dmarc', 'missing'), spf: checkRow('spf', 'error') }));
    await recordScan(recorder, await f.scan(domain.id), outcomeData());

    const rows = await testDb.db
      .selectFrom('domainReputationHistory')
      .select(['score', 'previousScore', 'trend', 'factors', 'scanId'])
      .where('domainId', '=', domain.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.score, r.previousScore, r.trend])).toEqual([
      [100, null, 'stable'],
      [92, 100, 'declining'],
      [expect.any(Number), 92, 'declining'],
      [100, rows[2]!.score, 'improving'],
    ]);
    expect(rows[0]!.factors).toMatchObject({ weightedScores: { emailAuthentication: 40 }, securityDeliverability: { blacklist: { score: 10, status: 'clean' } } });
    expect((await f.counts(domain.id)).status).toBe('healthy');
  });

  it('raises ssl_expiring at 30, 14, 7 and 1 days, once each per certificate, and returns each for delivery', async () => {
    const domain = await f.domain({ plan: 'standard' });
    const expiresAt = new Date(now.getTime() + 25 * DAY).toISOString();
    const scanAt = async (days: number, expiry = expiresAt) => recordScan(recorder, await f.scan(domain.id), outcomeData({ ssl_certificate: sslExpiring(days, expiry) }));
    const expiring = async () => (await alertsOf(domain.id)).filter((a) => a.type === 'ssl_expiring');

    await scanAt(45, expiresAt);
    expect(await expiring()).toHaveLength(0);
    const raised: number[] = [];
    for (const days of [25, 20, 13, 13, 10, 6, 5, 1]) {
      const result = await scanAt(days);
      if (result.written) raised.push(...result.alertIds);
    }
    const alerts = await expiring();
    expect(alerts.map((a) => [a.type, a.severity, (a.details as { threshold: number }).threshold])).toEqual([
      ['ssl_expiring', 'medium', 30],
      ['ssl_expiring', 'high', 14],
      ['ssl_expiring', 'high', 7],
      ['ssl_expiring', 'critical', 1],
    ]);
    expect(alerts.every((a) => a.userId === domain.userId && a.checkId !== null)).toBe(true);
    // The handler queues delivery of exactly what the recorder returns.
    expect(raised).toEqual(expect.arrayContaining(alerts.map((a) => a.id)));

    // A renewed certificate (another expiry) resolves the old reminders and starts afresh.
    const renewed = await scanAt(29, new Date(now.getTime() + 29 * DAY).toISOString());
    expect(renewed.written && renewed.resolvedAlertIds.sort()).toEqual(alerts.map((a) => a.id).sort());
    expect(await expiring()).toHaveLength(5);
  });

  it('raises dns_change against the previous completed scan, listing what changed', async () => {
    const domain = await f.domain({ plan: 'advanced' });
    await recordScan(recorder, await f.scan(domain.id), outcomeData({}, snapshotData()));
    await recordScan(recorder, await f.scan(domain.id), outcomeData({}, snapshotData()));
    expect(await alertsOf(domain.id)).toHaveLength(0);

    const changed = snapshotData({ mx: [{ exchange: 'mx.other.test', priority: 5, ips: ['198.51.100.7'] }], txt: ['v=spf1 include:other.test -all'], spfRecord: 'v=spf1 include:other.test -all' });
    await recordScan(recorder, await f.scan(domain.id), outcomeData({}, changed));
    const [alert] = await alertsOf(domain.id);
    expect(alert).toMatchObject({ type: 'dns_change', severity: 'high' });
    expect((alert!.details as { changes: Array<{ summary: string }> }).changes.map((c) => c.summary)).toEqual([
      'SPF lost mx',
      'SPF added include:other.test',
      'MX mx.example.test (priority 10) removed',
      'MX mx.other.test (priority 5) added',
    ]);

    // A record set the scan could not read is not a change.
    await recordScan(recorder, await f.scan(domain.id), outcomeData({}, { ...changed, mx: [], failed: ['mx'] }));
    expect(await alertsOf(domain.id)).toHaveLength(1);
  });

  it.each(['basic', 'free', 'onetime'])('raises no SSL or DNS-change alerts on %s', async (plan) => {
    const domain = await f.domain({ plan });
    await recordScan(recorder, await f.scan(domain.id), outcomeData({ ssl_certificate: sslExpiring(5) }, snapshotData()));
    await recordScan(recorder, await f.scan(domain.id), outcomeData({ ssl_certificate: sslExpiring(5) }, snapshotData({ a: ['203.0.113.9'] })));
    expect(await alertsOf(domain.id)).toHaveLength(0);
    expect(await f.counts(domain.id)).toMatchObject({ scanCount: 2, checks: 2 * checkTypes.length });
  });

  it('does not write a scan whose domain was deleted meanwhile, and marks it failed', async () => {
    const domain = await f.domain({ plan: 'standard' });
    const scanId = await f.scan(domain.id);
    await testDb.db.updateTable('domains').set({ isDeleted: true, deletedAt: now }).where('id', '=', domain.id).execute();
    expect(await recordScan(recorder, scanId, outcomeData())).toEqual({ written: false, reason: 'deleted-domain' });
    expect(await f.counts(domain.id)).toMatchObject({ checks: 0, scanCount: 0 });
    const scan = await testDb.db.selectFrom('scans').select(['status', 'error']).where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(scan.status).toBe('failed');
  });

  it('keeps the clock: last_scan and check times are the scan time', async () => {
    now = new Date('2026-11-22T08:00:00.000Z');
    const domain = await f.domain({ plan: 'basic' });
    await recordScan(recorder, await f.scan(domain.id), outcomeData());
    expect((await f.counts(domain.id)).lastScan?.toISOString()).toBe('2026-11-22T08:00:00.000Z');
  });
});
