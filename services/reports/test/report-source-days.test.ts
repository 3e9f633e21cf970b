import { ScanRecorder } from '@sendwell/scan-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSourceRepository } from '../src/repositories/report-source.repository.js';
import { startHarness, type Harness } from './fixtures.js';

/**
 * The report's trend points come from the scan engine's daily summary (`scan_days`), one row a day
 * however many scans the day had, plus the daily recalculation on days without a scan.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);

afterAll(async () => {
  await h.close();
});

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
/** Noon UTC `daysAgo` days ago, plus `minutes`: every scan of a test day falls on the same UTC day. */
const at = (daysAgo: number, minutes = 0) => new Date(Date.parse(`${utcDay(new Date(Date.now() - daysAgo * DAY_MS))}T12:00:00Z`) + minutes * 60_000);

describe('ReportSourceRepository.days', () => {
  it("gives each day its last scan's statuses and last score, counts every scan, and draws a daily point without a scan", async () => {
    const user = await h.f.user('standard');
    const domain = await h.f.domain(user.id);
    // Three scans on one day, the last one (by time, not by insertion order) with SPF in error.
    await h.f.completedScan(domain.id, { at: at(5, 0), score: 70 });
    await h.f.completedScan(domain.id, { at: at(5, 90), statuses: { spf: 'error' }, score: 55 });
    await h.f.completedScan(domain.id, { at: at(5, 30), score: 71 });
    const lastScan = await h.f.completedScan(domain.id, { at: at(2), score: 80 });
    // A scan older than the window: not counted, not drawn.
    await h.f.completedScan(domain.id, { at: at(40), score: 40 });
    // The daily recalculation on a day without a scan (as the scanner's 02:00 job writes it).
    const recorder = new ScanRecorder(h.db);
    const pointDay = at(1);
    await recorder.recordDailyPoint({
      domainId: domain.id,
      userId: user.id,
      scanId: lastScan,
      score: { score: 77, factors: { weightedScores: { emailAuthentication: 30, securityDeliverability: 27, configurationHealth: 20 } } },
      now: pointDay,
      day: utcDay(pointDay),
      alert: () => null,
    });

    const { days, scans } = await new ReportSourceRepository(h.db).days(domain.id, new Date(Date.now() - 30 * DAY_MS));
    expect(scans).toBe(4);
    expect(days.map((d) => [d.day, d.score, d.status])).toEqual([
      [utcDay(at(5)), 71, 'warning'],
      [utcDay(at(2)), 80, 'warning'],
      [utcDay(at(1)), 77, null],
    ]);
    // The day's last scan by time is the 13:30 one, SPF in error; its score, though, is the last recorded.
    expect(days[0]?.checks).toMatchObject({ spf: 'error', dkim: 'valid', dns_performance: 'success' });
    expect(days[1]?.checks['spf']).toBe('valid');
    expect(days[2]?.checks).toEqual({});
  });

  it('reads nothing of another domain', async () => {
    const user = await h.f.user('standard');
    const mine = await h.f.domain(user.id);
    const other = await h.f.domain(user.id);
    await h.f.completedScan(other.id, { at: at(3), score: 60 });
    expect(await new ReportSourceRepository(h.db).days(mine.id, new Date(Date.now() - 30 * DAY_MS))).toEqual({ days: [], scans: 0 });
  });
});
