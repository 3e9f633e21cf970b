import { randomUUID } from 'node:crypto';
import { checkTypes, type CheckStatus, type CheckType, type DnsSnapshot } from '@sendwell/contracts';
import { createTestDb, type TestDb } from '@sendwell/testing';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCheck } from '../src/record/scan-outcome.js';
import { ScanRecorder } from '../src/record/scan-recorder.js';
import { ResultStore, type CheckToStore } from '../src/results/result-store.js';
import { ScanResults, type ScanCheck } from '../src/results/scan-results.js';
import { canonicalJson } from './canonical-json.js';

let t: TestDb;
let serial = 0;
const suffix = randomUUID().slice(0, 8);

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

const MINUTE = 60_000;
const DAY = 86_400_000;
const START = new Date('2026-11-01T00:00:00.000Z').getTime();

async function newDomain(plan = 'advanced'): Promise<{ userId: number; domainId: number; name: string }> {
  serial += 1;
  const tag = `results-${serial}-${suffix}`;
  const user = await t.db
    .insertInto('users')
    .values({ username: tag, email: `${tag}@example.com`, passwordHash: 'x', planType: plan })
    .returning('id')
    .executeTakeFirstOrThrow();
  const name = `${tag}.example`;
  const domain = await t.db.insertInto('domains').values({ userId: user.id, name }).returning('id').executeTakeFirstOrThrow();
  return { userId: user.id, domainId: domain.id, name };
}

async function newScan(domainId: number, completedAt: Date | null, status: 'completed' | 'queued' = 'completed'): Promise<string> {
  const row = await t.db.insertInto('scans').values({ domainId, trigger: 'scheduled', status, completedAt }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** The knobs of one generated scan: what really changes (`real`) and what varies every time. */
interface ScanState {
  spfRecord: string;
  dmarcStatus: CheckStatus;
  aRecord: string;
  slowestMs: number;
  bannerMs: number;
  at: Date;
}

const SSL_EXPIRES = new Date(START + 90 * DAY);

function checkOf(type: CheckType, s: ScanState): RecordedCheck {
  switch (type) {
    case 'spf':
      return { type, status: 'valid', value: s.spfRecord, message: 'SPF record found', recommendation: null, details: { record: s.spfRecord, lookupCount: 2, issue: null } };
    case 'dmarc':
      return {
        type,
        status: s.dmarcStatus,
        value: 'p=reject',
        message: s.dmarcStatus === 'valid' ? 'DMARC enforced' : 'DMARC reports go nowhere',
        recommendation: s.dmarcStatus === 'valid' ? null : 'Add a rua address',
        details: { policy: 'reject', pct: 100, record: 'v=DMARC1; p=reject' },
      };
    case 'dns_performance':
      return {
        type,
        status: 'success',
        value: `slowest in ${s.slowestMs} ms`,
        message: `All name servers answered, slowest in ${s.slowestMs} ms`,
        recommendation: null,
        details: { responseTimeMs: s.slowestMs, aRecords: [s.aRecord], mxRecords: [{ exchange: 'mx.example.net', priority: 10, ips: ['192.0.2.25'] }] },
      };
    case 'smtp':
      return {
        type,
        status: 'valid',
        value: '1 host',
        message: 'Every MX host offers STARTTLS',
        recommendation: null,
        details: {
          hosts: [
            {
              exchange: 'mx.example.net',
              preference: 10,
              ip: '192.0.2.25',
              banner: '220 mx.example.net ESMTP',
              bannerMs: s.bannerMs,
              starttls: true,
              extensions: ['PIPELINING', 'STARTTLS', '8BITMIME'],
              certificate: { subject: 'mx.example.net', issuer: 'R3', validTo: SSL_EXPIRES.toISOString(), daysRemaining: Math.floor((SSL_EXPIRES.getTime() - s.at.getTime()) / DAY), trusted: true },
            },
          ],
        },
      };
    case 'ssl_certificate':
      return {
        type,
        status: 'valid',
        value: 'R3',
        message: 'The certificate is valid',
        recommendation: null,
        details: { issuer: 'R3', expiresAt: SSL_EXPIRES.toISOString(), daysRemaining: Math.floor((SSL_EXPIRES.getTime() - s.at.getTime()) / DAY) },
      };
    case 'blacklist':
      return {
        type,
        status: 'valid',
        value: 'clean',
        message: 'Not listed on any of 3 lists',
        recommendation: null,
        details: { sites: ['zen', 'bl', 'ubl'].map((name) => ({ name, status: 'clean', url: null })), totalIpsChecked: 1, cleanIps: 1, listedIpsCount: 0 },
      };
    default:
      return { type, status: 'valid', value: null, message: `${type} is fine`, recommendation: null, details: { record: `${type} record`, findings: [] } };
  }
}

function snapshotOfState(s: ScanState): DnsSnapshot {
  return {
    takenAt: s.at.toISOString(),
    a: [s.aRecord],
    aaaa: [],
    mx: [{ exchange: 'mx.example.net', priority: 10, ips: ['192.0.2.25'] }],
    ns: ['ns1.example.net', 'ns2.example.net'],
    txt: [s.spfRecord, 'google-site-verification=abc'],
    spfRecord: s.spfRecord,
    dmarcRecord: 'v=DMARC1; p=reject',
    failed: [],
    mtaStsRecord: 'v=STSv1; id=20260101',
    tlsRptRecord: null,
    bimiRecord: null,
    profile: 'mail',
  };
}


/** What a check reads back as: its content as JSON (the stored columns), keyed by type. */
const contentOf = (c: CheckToStore) =>
  JSON.parse(JSON.stringify({ status: c.status, value: c.value, message: c.message, recommendation: c.recommendation, details: c.details })) as unknown;
const byType = (checks: readonly CheckToStore[]) =>
  Object.fromEntries([...checks].sort((a, b) => a.type.localeCompare(b.type)).map((c) => [c.type, contentOf(c)]));

/** Stores one scan's results the way the recorder does, against the previous scan as stored. */
async function storeScan(domainId: number, previousId: string | null, checks: RecordedCheck[], snapshot: DnsSnapshot, at: Date): Promise<string> {
  const scanId = await newScan(domainId, at);
  const previous = previousId ? ((await new ScanResults(t.db).stored([previousId])).get(previousId) ?? null) : null;
  if (previousId) expect(previous?.scanId).toBe(previousId);
  await new ResultStore(t.db).store({ scanId, domainId, checks, snapshot, at, previous });
  return scanId;
}

async function rowCounts(domainId: number): Promise<{ checks: Record<string, number>; snapshots: number }> {
  const checks = await t.db.selectFrom('checkResults').select(['type', (eb) => eb.fn.countAll<string>().as('n')]).where('domainId', '=', domainId).groupBy('type').execute();
  const snapshots = await t.db.selectFrom('dnsSnapshots').select((eb) => eb.fn.countAll<string>().as('n')).where('domainId', '=', domainId).executeTakeFirstOrThrow();
  return { checks: Object.fromEntries(checks.map((r) => [r.type, Number(r.n)])), snapshots: Number(snapshots.n) };
}

describe('ResultStore and ScanResults over a long history', () => {
  const SCANS = 300;
  const SPF_A = 'v=spf1 include:_spf.example.net -all';
  const SPF_B = 'v=spf1 include:_spf.example.net ip4:198.51.100.7 -all';
  let domainId: number;
  const scanIds: string[] = [];
  const recorded = new Map<string, { checks: RecordedCheck[]; snapshot: DnsSnapshot; at: Date; real: Record<string, string>; snapshotReal: string }>();

  beforeAll(async () => {
    ({ domainId } = await newDomain());
    let previousId: string | null = null;
    for (let i = 0; i < SCANS; i += 1) {
      const at = new Date(START + i * 15 * MINUTE);
      // Real changes: the SPF record at scans 60 (to B) and 210 (back to A), DMARC's status at 100 and 150,
      // the A record at 180 (the snapshot and dns_performance's details).
      const state: ScanState = {
        spfRecord: i >= 60 && i < 210 ? SPF_B : SPF_A,
        dmarcStatus: i >= 100 && i < 150 ? 'warning' : 'valid',
        aRecord: i >= 180 ? '192.0.2.80' : '192.0.2.1',
        slowestMs: 20 + ((i * 37) % 90),
        bannerMs: 100 + ((i * 53) % 400),
        at,
      };
      const checks = checkTypes.map((type) => checkOf(type, state));
      const snapshot = snapshotOfState(state);
      // The real (non-volatile) side of every result, said independently of resultIdentity.
      const real: Record<string, string> = Object.fromEntries(checkTypes.map((type) => [type, type === 'spf' ? state.spfRecord : type === 'dmarc' ? state.dmarcStatus : type === 'dns_performance' ? state.aRecord : 'same']));
      const snapshotReal = `${state.spfRecord}|${state.aRecord}`;
      const scanId = await storeScan(domainId, previousId, checks, snapshot, at);
      scanIds.push(scanId);
      recorded.set(scanId, { checks, snapshot, at, real, snapshotReal });
      previousId = scanId;
    }
  }, 120_000);

  /** How many times each type's real result changed over the history (the first scan counts as one). */
  function expectedRows(): { checks: Record<string, number>; snapshots: number } {
    const checks: Record<string, number> = {};
    let snapshots = 0;
    let before: (typeof recorded extends Map<string, infer V> ? V : never) | undefined;
    for (const id of scanIds) {
      const scan = recorded.get(id)!;
      for (const type of checkTypes) if (!before || before.real[type] !== scan.real[type]) checks[type] = (checks[type] ?? 0) + 1;
      if (!before || before.snapshotReal !== scan.snapshotReal) snapshots += 1;
      before = scan;
    }
    return { checks, snapshots };
  }

  it('stores one check_results row per real change of each type, and one dns_snapshots row per snapshot change', async () => {
    const expected = expectedRows();
    // The generator's own changes: SPF A→B→A, DMARC valid→warning→valid, the A record once.
    expect(expected.checks).toMatchObject({ spf: 3, dmarc: 3, dns_performance: 2, smtp: 1, ssl_certificate: 1, blacklist: 1 });
    expect(expected.snapshots).toBe(4);
    expect(await rowCounts(domainId)).toEqual(expected);
  });

  it('reads every scan back exactly as it was recorded: checks by type, snapshot, and the scan and time', async () => {
    const results = new ScanResults(t.db);
    const mismatches: string[] = [];
    for (const [index, id] of scanIds.entries()) {
      const scan = recorded.get(id)!;
      const checks = await results.checksOfScan(id);
      expect(checks, `scan ${index}`).toHaveLength(checkTypes.length);
      const read = byType(checks);
      const want = byType(scan.checks);
      for (const type of checkTypes) if (canonicalJson(read[type]) !== canonicalJson(want[type])) mismatches.push(`scan ${index} ${type}: read ${canonicalJson(read[type])}, recorded ${canonicalJson(want[type])}`);
      for (const check of checks) {
        expect(check).toMatchObject({ scanId: id, domainId, createdAt: scan.at });
      }
      const snapshot = await results.snapshotOfScan(id);
      if (canonicalJson(snapshot) !== canonicalJson(scan.snapshot)) mismatches.push(`scan ${index} snapshot: read ${canonicalJson(snapshot)}, recorded ${canonicalJson(scan.snapshot)}`);
    }
    const tally: Record<string, number> = {};
    for (const m of mismatches) {
      const what = m.split(' ')[2]!.replace(':', '');
      tally[what] = (tally[what] ?? 0) + 1;
    }
    expect(mismatches.slice(0, 6), `${mismatches.length} mismatches, by type ${JSON.stringify(tally)}`).toEqual([]);
  });

  it('gives a check the same stored id while its result stands, and a new one when it really changes', async () => {
    const all = await new ScanResults(t.db).checksOfScans(scanIds);
    let before: Map<CheckType, ScanCheck> | undefined;
    let beforeScan: (typeof recorded extends Map<string, infer V> ? V : never) | undefined;
    for (const [index, id] of scanIds.entries()) {
      const checks = new Map(all.get(id)!.map((c) => [c.type, c]));
      const scan = recorded.get(id)!;
      if (before && beforeScan) {
        for (const type of checkTypes) {
          const same = before.get(type)!.id === checks.get(type)!.id;
          expect(same, `scan ${index} ${type}`).toBe(beforeScan.real[type] === scan.real[type]);
        }
      }
      before = checks;
      beforeScan = scan;
    }
    // SPF's third row is a new one, not the first row again: stored on change relative to the previous scan.
    const spfIds = [scanIds[0]!, scanIds[60]!, scanIds[210]!].map((id) => all.get(id)!.find((c) => c.type === 'spf')!.id);
    expect(new Set(spfIds).size).toBe(3);
  });

  it('reads many scans at once as it reads each one, and the snapshots likewise', async () => {
    const results = new ScanResults(t.db);
    const all = await results.checksOfScans(scanIds);
    expect(all.size).toBe(SCANS);
    const snapshots = await results.snapshotsOf(scanIds);
    expect(snapshots.size).toBe(SCANS);
    for (const id of scanIds.filter((_, i) => i % 7 === 0 || i === SCANS - 1)) {
      const one = await results.checksOfScan(id);
      const sort = (checks: ScanCheck[]) => [...checks].sort((a, b) => a.type.localeCompare(b.type));
      expect(sort(all.get(id)!)).toEqual(sort(one));
      expect(snapshots.get(id)).toEqual(await results.snapshotOfScan(id));
    }
  });

  it("keeps an unchanged scan's stored references and patches far smaller than its full results", async () => {
    // Scans that repeated the previous one's results (timings and timestamps aside).
    const unchanged = scanIds.filter((id, i) => {
      if (i === 0) return false;
      const before = recorded.get(scanIds[i - 1]!)!;
      const scan = recorded.get(id)!;
      return before.snapshotReal === scan.snapshotReal && checkTypes.every((type) => before.real[type] === scan.real[type]);
    });
    expect(unchanged.length).toBeGreaterThan(SCANS - 10);
    const rows = await t.db
      .selectFrom('scans')
      .select((eb) => [
        'id',
        sql<number>`coalesce(pg_column_size(${eb.ref('checkResultIds')}), 0) + coalesce(pg_column_size(${eb.ref('dnsSnapshotId')}), 0) + coalesce(pg_column_size(${eb.ref('resultPatches')}), 0)`.as('storedBytes'),
        'resultPatches',
      ])
      .where('id', 'in', unchanged)
      .execute();
    expect(rows).toHaveLength(unchanged.length);
    // The full results as one jsonb value each: what a row per check per scan stored before.
    let fullTotal = 0;
    let storedTotal = 0;
    for (const row of rows) {
      const scan = recorded.get(row.id)!;
      const full = await sql<{ bytes: number }>`select pg_column_size(${JSON.stringify({ checks: scan.checks, snapshot: scan.snapshot })}::jsonb) as bytes`.execute(t.db);
      const fullBytes = Number(full.rows[0]!.bytes);
      const stored = Number(row.storedBytes);
      expect(stored, `scan ${scanIds.indexOf(row.id)}`).toBeLessThan(fullBytes / 4);
      // Every unchanged scan varied in some timing, so it has a patch, and the patch is small.
      expect(row.resultPatches, `scan ${scanIds.indexOf(row.id)}`).not.toBeNull();
      fullTotal += fullBytes;
      storedTotal += stored;
    }
    expect(storedTotal).toBeLessThan(fullTotal / 5);
    // No check_results or dns_snapshots row was written at these scans' times.
    const times = unchanged.map((id) => recorded.get(id)!.at);
    expect(Number((await t.db.selectFrom('checkResults').select((eb) => eb.fn.countAll<string>().as('n')).where('domainId', '=', domainId).where('createdAt', 'in', times).executeTakeFirstOrThrow()).n)).toBe(0);
    expect(Number((await t.db.selectFrom('dnsSnapshots').select((eb) => eb.fn.countAll<string>().as('n')).where('domainId', '=', domainId).where('createdAt', 'in', times).executeTakeFirstOrThrow()).n)).toBe(0);
  });
});

describe('ResultStore, store on change', () => {
  const state = (i: number, spfRecord: string): ScanState => ({ spfRecord, dmarcStatus: 'valid', aRecord: '192.0.2.1', slowestMs: 30 + i, bannerMs: 200 + i, at: new Date(START + i * 15 * MINUTE) });

  it('stores A, B, A as three rows: each is compared with the previous scan only', async () => {
    const { domainId } = await newDomain();
    const records = ['v=spf1 a -all', 'v=spf1 mx -all', 'v=spf1 a -all'];
    let previousId: string | null = null;
    const ids: string[] = [];
    for (const [i, record] of records.entries()) {
      const s = state(i, record);
      const checks = checkTypes.map((type) => checkOf(type, s));
      previousId = await storeScan(domainId, previousId, checks, snapshotOfState(s), s.at);
      ids.push(previousId);
    }
    const counts = await rowCounts(domainId);
    expect(counts.checks.spf).toBe(3);
    expect(counts.snapshots).toBe(3);
    for (const type of checkTypes.filter((type) => type !== 'spf')) expect(counts.checks[type], type).toBe(1);
    const results = new ScanResults(t.db);
    const spf = await Promise.all(ids.map(async (id) => (await results.checksOfScan(id, ['spf']))[0]!));
    expect(spf.map((c) => c.value)).toEqual(records);
    expect(new Set(spf.map((c) => c.id)).size).toBe(3);
  });

  it('stores a check type that appears in a later scan, and reads a scan without it as without it', async () => {
    const { domainId } = await newDomain();
    const core = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance'] as const;
    const s0 = state(0, 'v=spf1 -all');
    const s1 = state(1, 'v=spf1 -all');
    const s2 = state(2, 'v=spf1 -all');
    const first = core.map((type) => checkOf(type, s0));
    const second = checkTypes.map((type) => checkOf(type, s1));
    const third = core.map((type) => checkOf(type, s2));
    const id0 = await storeScan(domainId, null, first, snapshotOfState(s0), s0.at);
    const id1 = await storeScan(domainId, id0, second, snapshotOfState(s1), s1.at);
    const id2 = await storeScan(domainId, id1, third, snapshotOfState(s2), s2.at);
    const counts = await rowCounts(domainId);
    expect(counts.checks).toEqual(Object.fromEntries(checkTypes.map((type) => [type, 1])));
    const results = new ScanResults(t.db);
    expect(byType(await results.checksOfScan(id0))).toEqual(byType(first));
    expect(byType(await results.checksOfScan(id1))).toEqual(byType(second));
    expect(byType(await results.checksOfScan(id2))).toEqual(byType(third));
    // The core checks kept their stored rows across all three scans.
    const ids = async (id: string) => new Map((await results.checksOfScan(id, [...core])).map((c) => [c.type, c.id]));
    expect(await ids(id1)).toEqual(await ids(id0));
    expect(await ids(id2)).toEqual(await ids(id0));
  });

  it('stores a check anew when only its digits in a nested text change (not a timing)', async () => {
    const { domainId } = await newDomain();
    const s0 = state(0, 'v=spf1 ip4:192.0.2.1 -all');
    const s1 = state(1, 'v=spf1 ip4:192.0.2.2 -all');
    const id0 = await storeScan(domainId, null, [checkOf('spf', s0)], snapshotOfState(s0), s0.at);
    await storeScan(domainId, id0, [checkOf('spf', s1)], snapshotOfState(s1), s1.at);
    expect(await rowCounts(domainId)).toEqual({ checks: { spf: 2 }, snapshots: 2 });
  });

  it('reads only the asked types, [] for a scan without results, and nothing for an unknown scan', async () => {
    const { domainId } = await newDomain();
    const s = state(0, 'v=spf1 -all');
    const checks = checkTypes.map((type) => checkOf(type, s));
    const id = await storeScan(domainId, null, checks, snapshotOfState(s), s.at);
    const empty = await newScan(domainId, null, 'queued');
    const results = new ScanResults(t.db);

    const some = await results.checksOfScan(id, ['spf', 'dmarc']);
    expect(some.map((c) => c.type).sort()).toEqual(['dmarc', 'spf']);
    expect(byType(some)).toEqual(byType(checks.filter((c) => c.type === 'spf' || c.type === 'dmarc')));
    expect(await results.checksOfScan(id, [])).toEqual([]);

    expect(await results.checksOfScan(empty)).toEqual([]);
    expect(await results.snapshotOfScan(empty)).toBeNull();
    const many = await results.checksOfScans([id, empty], ['spf', 'dmarc']);
    expect([...many.keys()].sort()).toEqual([id, empty].sort());
    expect(many.get(empty)).toEqual([]);
    expect(many.get(id)).toEqual(expect.arrayContaining(some));
    expect(many.get(id)).toHaveLength(2);
    const snapshots = await results.snapshotsOf([id, empty]);
    expect([...snapshots.keys()]).toEqual([id]);

    expect(await results.checksOfScan(randomUUID())).toEqual([]);
    expect((await results.checksOfScans([])).size).toBe(0);
    expect(await results.snapshotOfScan(randomUUID())).toBeNull();
  });

  it('keeps the keys of details as they were (`__proto__`, snake_case) and never sets a prototype', async () => {
    const { domainId } = await newDomain();
    const s0 = state(0, 'v=spf1 -all');
    const s1 = state(1, 'v=spf1 -all');
    const withProto = (s: ScanState): RecordedCheck => ({
      ...checkOf('smtp', s),
      details: JSON.parse(`{"hosts":[{"exchange":"mx.example.net","bannerMs":${s.bannerMs},"max_age":604800,"__proto__":{"starttls":true}}]}`) as object,
    });
    const first = [withProto(s0)];
    const second = [withProto(s1)];
    const id0 = await storeScan(domainId, null, first, snapshotOfState(s0), s0.at);
    const id1 = await storeScan(domainId, id0, second, snapshotOfState(s1), s1.at);
    expect((await rowCounts(domainId)).checks).toEqual({ smtp: 1 });
    const results = new ScanResults(t.db);
    for (const [id, want] of [
      [id0, first],
      [id1, second],
    ] as const) {
      const [check] = await results.checksOfScan(id);
      const host = (check!.details as { hosts: object[] }).hosts[0]!;
      expect(Object.getPrototypeOf(host)).toBe(Object.prototype);
      expect(Object.hasOwn(host, '__proto__')).toBe(true);
      expect(canonicalJson(check!.details)).toBe(canonicalJson(want[0]!.details));
    }
  });
});

describe('ScanRecorder.record with results stored on change', () => {
  it('writes no check_results row for a scan repeating the previous one, and reads both back as recorded', async () => {
    const { domainId } = await newDomain('advanced');
    let now = new Date(START);
    const recorder = new ScanRecorder(t.db, () => now);
    const decide = () => ({ raise: [], resolve: [] });
    const outcome = (i: number) => {
      const s: ScanState = { spfRecord: 'v=spf1 mx -all', dmarcStatus: 'valid', aRecord: '192.0.2.1', slowestMs: 40 + i * 21, bannerMs: 300 + i * 7, at: new Date(START + i * 15 * MINUTE) };
      return {
        status: 'healthy',
        checks: Object.fromEntries(checkTypes.map((type) => [type, checkOf(type, s)])) as Record<CheckType, RecordedCheck>,
        snapshot: snapshotOfState(s),
        score: { score: 90, factors: { weightedScores: { emailAuthentication: 10, securityDeliverability: 10, configurationHealth: 10 } } },
      };
    };
    const first = await newScan(domainId, null, 'queued');
    const one = outcome(0);
    expect(await recorder.record(first, one, decide)).toMatchObject({ written: true });
    const afterFirst = await rowCounts(domainId);
    expect(afterFirst).toEqual({ checks: Object.fromEntries(checkTypes.map((type) => [type, 1])), snapshots: 1 });

    now = new Date(START + 15 * MINUTE);
    const second = await newScan(domainId, null, 'queued');
    const two = outcome(1);
    expect(await recorder.record(second, two, decide)).toMatchObject({ written: true });
    expect(await rowCounts(domainId)).toEqual(afterFirst);

    const results = new ScanResults(t.db);
    const [a, b] = [await results.checksOfScan(first), await results.checksOfScan(second)];
    expect(byType(a)).toEqual(byType(Object.values(one.checks)));
    expect(byType(b)).toEqual(byType(Object.values(two.checks)));
    expect(new Map(b.map((c) => [c.type, c.id]))).toEqual(new Map(a.map((c) => [c.type, c.id])));
    expect(b.every((c) => c.createdAt.getTime() === now.getTime())).toBe(true);
    expect(await results.snapshotOfScan(second)).toEqual(two.snapshot);
    expect(await results.snapshotOfScan(first)).toEqual(one.snapshot);
  });
});
