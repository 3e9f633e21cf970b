import { randomUUID } from 'node:crypto';
import type { CheckType, DnsSnapshot } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_TABLES, HistoryPartitions, monthStart, partitionName } from '../src/history/history-partitions.js';
import { ResultStore, type CheckToStore } from '../src/results/result-store.js';
import { ScanResults } from '../src/results/scan-results.js';

/*
 * The scan history's month partitions against real Postgres: created ahead, an expired month dropped
 * whole after each domain's latest scan and score are carried out of it, and results never shared
 * across months (so a month can drop whole).
 */

let t: TestDb;
let serial = 0;
const suffix = randomUUID().slice(0, 8);
const DAY = 86_400_000;
const NOW = new Date();
const THIS_MONTH = monthStart(NOW);
const NEXT_MONTH = monthStart(NOW, 1);
/** A moment of next month. */
const NEXT_AT = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 1, 10));

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

async function newDomain(opts: { lastScan?: Date; deleted?: boolean } = {}): Promise<number> {
  serial += 1;
  const tag = `partitions-${serial}-${suffix}`;
  const user = await t.db.insertInto('users').values({ username: tag, email: `${tag}@example.com`, passwordHash: 'x', planType: 'free' }).returning('id').executeTakeFirstOrThrow();
  const domain = await t.db
    .insertInto('domains')
    .values({ userId: user.id, name: `${tag}.example`, lastScan: opts.lastScan ?? null, isDeleted: opts.deleted ?? false, deletedAt: opts.deleted ? new Date() : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return domain.id;
}

const check = (type: CheckType, value: string): CheckToStore => ({ type, status: 'valid', value, message: `${type} found`, recommendation: null, details: { record: value, ms: 12 } });
const snapshot = (at: Date, spf: string): DnsSnapshot => ({
  takenAt: at.toISOString(),
  a: ['192.0.2.1'],
  aaaa: [],
  mx: [],
  ns: ['ns1.example.net'],
  txt: [spf],
  spfRecord: spf,
  dmarcRecord: null,
  failed: [],
});

/** A completed scan kept in `month` (the real write path: the store reads the scan's month), compared with `previousId`. */
async function scan(domainId: number, at: Date, month: string, spf: string, previousId: string | null): Promise<string> {
  const row = await t.db
    .insertInto('scans')
    .values({ domainId, trigger: 'scheduled', status: 'completed', createdAt: at, completedAt: at, overallStatus: 'healthy', storedMonth: sql<Date>`${month}::date` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const previous = previousId ? ((await new ScanResults(t.db).stored([previousId])).get(previousId) ?? null) : null;
  await new ResultStore(t.db).store({ scanId: row.id, domainId, checks: [check('spf', spf), check('dmarc', 'v=DMARC1; p=none')], snapshot: snapshot(at, spf), at, previous });
  return row.id;
}

async function score(domainId: number, scanId: string, at: Date, month: string, value: number): Promise<void> {
  await t.db
    .insertInto('domainReputationHistory')
    .values({ domainId, scanId, score: value, factors: JSON.stringify({}), calculatedAt: at, storedMonth: sql<Date>`${month}::date` })
    .execute();
}

const monthOfRows = async (table: 'scans' | 'check_results' | 'dns_snapshots', ids: Array<string | number>) => {
  const { rows } = await sql<{ month: string }>`select distinct stored_month::text as month from ${sql.table(table)} where id::text = any(${ids.map(String)}::text[])`.execute(t.db);
  return rows.map((r) => r.month).sort();
};

describe('HistoryPartitions', () => {
  it('creates the current month and two ahead for every history table, once', async () => {
    const partitions = new HistoryPartitions(t.db);
    // The migration made this month and the next two already.
    expect(await partitions.ensureMonths(NOW)).toEqual([]);
    const later = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 4, 10));
    expect(await partitions.ensureMonths(later)).toEqual([monthStart(NOW, 4), monthStart(NOW, 5), monthStart(NOW, 6)]);
    expect(await partitions.ensureMonths(later)).toEqual([]);
    const months = await partitions.months();
    // A gap is left as it is: nothing is ever written to a month before the current one.
    for (const table of HISTORY_TABLES) expect(months[table]).toEqual([0, 1, 2, 4, 5, 6].map((plus) => monthStart(NOW, plus)));
  });

  it('keeps a month while any of it is within the longest history', () => {
    const partitions = new HistoryPartitions(t.db, 395);
    expect(partitions.firstKeptMonth(new Date('2027-12-31T23:00:00Z'))).toBe('2026-12-01');
    expect(partitions.firstKeptMonth(new Date('2028-01-01T00:00:00Z'))).toBe('2026-12-01');
    expect(partitions.firstKeptMonth(new Date('2028-02-01T00:00:00Z'))).toBe('2027-01-01');
  });

  it('never lets a scan reference a result kept in another month', async () => {
    const domainId = await newDomain();
    const first = await scan(domainId, NOW, THIS_MONTH, 'v=spf1 -all', null);
    const same = await scan(domainId, new Date(NOW.getTime() + 1000), THIS_MONTH, 'v=spf1 -all', first);
    const nextMonth = await scan(domainId, new Date(NOW.getTime() + 2000), NEXT_MONTH, 'v=spf1 -all', same);
    const stored = await new ScanResults(t.db).stored([first, same, nextMonth]);
    // Within the month the unchanged results are referenced; across it they are stored again.
    expect(stored.get(same)!.checks.map((c) => c.id)).toEqual(stored.get(first)!.checks.map((c) => c.id));
    expect(stored.get(same)!.snapshot!.id).toBe(stored.get(first)!.snapshot!.id);
    const nextIds = stored.get(nextMonth)!.checks.map((c) => c.id);
    expect(nextIds.some((id) => stored.get(first)!.checks.some((c) => c.id === id))).toBe(false);
    expect(await monthOfRows('check_results', nextIds)).toEqual([NEXT_MONTH]);
    expect(await monthOfRows('dns_snapshots', [stored.get(nextMonth)!.snapshot!.id])).toEqual([NEXT_MONTH]);
    // And every scan still reads back what it saw.
    const checks = await new ScanResults(t.db).checksOfScans([first, same, nextMonth]);
    for (const id of [first, same, nextMonth]) expect(checks.get(id)!.find((c) => c.type === 'spf')!.value).toBe('v=spf1 -all');
  });

  describe('dropping an expired month', () => {
    // A day in the month after next year's: this month is wholly out of the 395 days, next month is not.
    const LATER = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() + 14, 15));
    let partitions: HistoryPartitions;
    const at = (minutes: number) => new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 1) + DAY + minutes * 60_000);
    const domains = { moving: 0, stopped: 0, deleted: 0, gone: 0 };
    const scans = { moving: [] as string[], stopped: [] as string[], deleted: [] as string[] };
    const before = new Map<string, unknown>();
    let result: Awaited<ReturnType<HistoryPartitions['run']>>;

    beforeAll(async () => {
      partitions = new HistoryPartitions(t.db, 395);
      expect(partitions.firstKeptMonth(LATER)).toBe(NEXT_MONTH);
      // Still scanning: this month, then next month (its latest scan is not in the month dropped).
      domains.moving = await newDomain({ lastScan: NEXT_AT });
      scans.moving.push(await scan(domains.moving, at(0), THIS_MONTH, 'v=spf1 a -all', null));
      scans.moving.push(await scan(domains.moving, at(15), THIS_MONTH, 'v=spf1 a -all', scans.moving[0]!));
      scans.moving.push(await scan(domains.moving, NEXT_AT, NEXT_MONTH, 'v=spf1 a -all', scans.moving[1]!));
      await score(domains.moving, scans.moving[1]!, at(15), THIS_MONTH, 70);
      await score(domains.moving, scans.moving[2]!, NEXT_AT, NEXT_MONTH, 72);
      // Stopped scanning this month (a free domain): three scans, a change between the second and third.
      domains.stopped = await newDomain({ lastScan: at(30) });
      scans.stopped.push(await scan(domains.stopped, at(0), THIS_MONTH, 'v=spf1 -all', null));
      scans.stopped.push(await scan(domains.stopped, at(15), THIS_MONTH, 'v=spf1 -all', scans.stopped[0]!));
      scans.stopped.push(await scan(domains.stopped, at(30), THIS_MONTH, 'v=spf1 mx -all', scans.stopped[1]!));
      await score(domains.stopped, scans.stopped[1]!, at(15), THIS_MONTH, 50);
      await score(domains.stopped, scans.stopped[2]!, at(30), THIS_MONTH, 55);
      // Deleted but still restorable: its last scan must stay for a restore.
      domains.deleted = await newDomain({ lastScan: at(5), deleted: true });
      scans.deleted.push(await scan(domains.deleted, at(5), THIS_MONTH, 'v=spf1 ~all', null));
      // Purged already: its rows went with the domain (the foreign key to domains still cascades).
      domains.gone = await newDomain({ lastScan: at(5) });
      await scan(domains.gone, at(5), THIS_MONTH, 'v=spf1 ?all', null);
      await t.db.deleteFrom('domains').where('id', '=', domains.gone).execute();

      const reader = new ScanResults(t.db);
      for (const id of [scans.stopped[2]!, scans.deleted[0]!, scans.moving[2]!]) {
        before.set(id, { checks: await reader.checksOfScan(id), snapshot: await reader.snapshotOfScan(id) });
      }
      result = await partitions.run(LATER);
    });

    it('drops the month from every history table, and creates the months around the run', async () => {
      expect(result.dropped).toEqual([THIS_MONTH]);
      expect(result.created).toContain(monthStart(LATER));
      const months = await partitions.months();
      for (const table of HISTORY_TABLES) {
        expect(months[table]).not.toContain(THIS_MONTH);
        expect(months[table]).toContain(NEXT_MONTH);
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = ${partitionName('scans', THIS_MONTH)}`.execute(t.db);
      expect(rows[0]!.n).toBe(0);
      expect(result.dropMs).toBeGreaterThan(0);
    });

    it('carries forward the latest scan of each domain that stopped scanning, reading back as before', async () => {
      expect(result.carriedScans).toBe(2);
      const reader = new ScanResults(t.db);
      for (const id of [scans.stopped[2]!, scans.deleted[0]!, scans.moving[2]!]) {
        expect({ checks: await reader.checksOfScan(id), snapshot: await reader.snapshotOfScan(id) }).toEqual(before.get(id));
      }
      expect(await monthOfRows('scans', [scans.stopped[2]!, scans.deleted[0]!])).toEqual([monthStart(LATER)]);
      // created_at is still when it ran: the scan is only kept elsewhere.
      const kept = await t.db.selectFrom('scans').select(['createdAt']).where('id', '=', scans.stopped[2]!).executeTakeFirstOrThrow();
      expect(kept.createdAt.toISOString()).toBe(at(30).toISOString());
      expect(await reader.checksOfLatestScan(domains.stopped)).toEqual((before.get(scans.stopped[2]!) as { checks: unknown }).checks);
    });

    it('drops everything else of the month', async () => {
      const left = await t.db.selectFrom('scans').select('id').where('domainId', 'in', [domains.moving, domains.stopped, domains.deleted, domains.gone]).execute();
      expect(left.map((s) => s.id).sort()).toEqual([scans.moving[2]!, scans.stopped[2]!, scans.deleted[0]!].sort());
      const stored = await new ScanResults(t.db).stored([scans.moving[0]!, scans.stopped[0]!]);
      expect(stored.size).toBe(0);
    });

    it("carries forward each stopped domain's latest score only", async () => {
      expect(result.carriedScores).toBe(1);
      const points = await t.db.selectFrom('domainReputationHistory').select(['domainId', 'score']).where('domainId', 'in', [domains.moving, domains.stopped]).orderBy('score').execute();
      expect(points).toEqual([
        { domainId: domains.stopped, score: 55 },
        { domainId: domains.moving, score: 72 },
      ]);
    });

    it('has nothing more to do on the next run', async () => {
      const again = await partitions.run(LATER);
      expect(again).toEqual({ created: [], dropped: [], carriedScans: 0, carriedScores: 0, dropMs: 0 });
    });

    it('carries a kept scan forward again when its new month expires in turn', async () => {
      const muchLater = new Date(Date.UTC(LATER.getUTCFullYear(), LATER.getUTCMonth() + 14, 15));
      const next = await partitions.run(muchLater);
      expect(next.dropped[0]).toBe(NEXT_MONTH);
      expect(next.dropped).toContain(monthStart(LATER));
      const left = await t.db.selectFrom('scans').select('id').where('domainId', 'in', [domains.moving, domains.stopped, domains.deleted]).execute();
      expect(left.map((s) => s.id).sort()).toEqual([scans.moving[2]!, scans.stopped[2]!, scans.deleted[0]!].sort());
      const reader = new ScanResults(t.db);
      for (const id of [scans.stopped[2]!, scans.deleted[0]!, scans.moving[2]!]) {
        expect({ checks: await reader.checksOfScan(id), snapshot: await reader.snapshotOfScan(id) }).toEqual(before.get(id));
      }
    });
  });
});
