import { randomUUID } from 'node:crypto';
import { sql } from '@sendwell/db';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanDayRows } from '../src/record/scan-day-rows.js';

/* The timeline's daily summary as the engine keeps it (scan_days), against real Postgres. */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

async function domain(): Promise<number> {
  const tag = `days-${randomUUID().slice(0, 8)}`;
  const user = await t.db.insertInto('users').values({ username: tag, email: `${tag}@example.com`, passwordHash: 'x', planType: 'advanced' }).returning('id').executeTakeFirstOrThrow();
  return (await t.db.insertInto('domains').values({ userId: user.id, name: `${tag}.example` }).returning('id').executeTakeFirstOrThrow()).id;
}

async function scan(domainId: number, createdAt: Date): Promise<string> {
  return (await t.db.insertInto('scans').values({ domainId, trigger: 'scheduled', status: 'completed', createdAt }).returning('id').executeTakeFirstOrThrow()).id;
}

const days = async (domainId: number) =>
  (
    await sql<{ day: string; scans: number; lastScanId: string; overallStatus: string; checks: string[]; score: number | null }>`
      select to_char(day, 'YYYY-MM-DD') as day, scans, last_scan_id::text, overall_status, checks, score from scan_days where domain_id = ${domainId} order by day`.execute(t.db)
  ).rows;

describe('ScanDayRows', () => {
  const day = new Date();
  const at = (hour: number, plusDays = 0) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + plusDays, hour));

  it("counts each scan into its UTC day; the day's last scan by creation leads it, the last score recorded stands", async () => {
    const d = await domain();
    const rows = new ScanDayRows(t.db);
    const early = await scan(d, at(1));
    const late = await scan(d, at(22));
    const middle = await scan(d, at(12));
    await rows.countScan({ domainId: d, scanId: early, createdAt: at(1), overallStatus: 'healthy', checks: [{ type: 'spf', status: 'valid' }, { type: 'dkim', status: 'valid' }], score: 70 });
    await rows.countScan({ domainId: d, scanId: late, createdAt: at(22), overallStatus: 'critical', checks: [{ type: 'spf', status: 'error' }, { type: 'dkim', status: 'valid' }], score: 40 });
    // Recorded after a later one (a retried job): counted, but the day's last scan stays the later one.
    await rows.countScan({ domainId: d, scanId: middle, createdAt: at(12), overallStatus: 'warning', checks: [{ type: 'spf', status: 'warning' }], score: 55 });
    expect(await days(d)).toEqual([
      { day: at(0).toISOString().slice(0, 10), scans: 3, lastScanId: late, overallStatus: 'critical', checks: ['dkim=valid', 'spf=error'], score: 55 },
    ]);
    // The daily point calculated that day is its last score; a day without a row gets none.
    await rows.setScore(d, at(23), 61);
    await rows.setScore(d, at(3, -5), 99);
    expect((await days(d)).map((r) => r.score)).toEqual([61]);
  });

  it('keeps a row in its scans\' month partition, apart per day', async () => {
    const d = await domain();
    const rows = new ScanDayRows(t.db);
    for (const [hour, plus] of [[5, 0], [6, 0], [5, -1]] as const) {
      const id = await scan(d, at(hour, plus));
      await rows.countScan({ domainId: d, scanId: id, createdAt: at(hour, plus), overallStatus: 'healthy', checks: [], score: null });
    }
    const { rows: kept } = await sql<{ scans: number; month: string }>`select scans, stored_month::text as month from scan_days where domain_id = ${d} order by day`.execute(t.db);
    const month = (await sql<{ month: string }>`select stored_month::text as month from scans where domain_id = ${d} limit 1`.execute(t.db)).rows[0]!.month;
    expect(kept).toEqual([
      { scans: 1, month },
      { scans: 2, month },
    ]);
  });
});
