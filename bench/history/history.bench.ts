/**
 * Scan history stored on change (issue 28): a simulated day of 15-minute scans of BENCH_HISTORY_DOMAINS
 * domains, recorded both ways in one fresh database on the same contents:
 *   - new: the real write path, `ResultStore.store` with the previous scan read back through
 *     `ScanResults.stored` (as the recorder does, one transaction per scan, 8 at a time): a check's
 *     result (or the DNS snapshot) is stored only when it differs from the domain's previous one,
 *     the scan row keeps references and a small patch (a timing, a timestamp);
 *   - old: the layout before it (legacy-layout.ts): 13 `domain_checks` rows per scan and the DNS
 *     snapshot in every scan row, bulk-inserted.
 * Each domain's 13 results look like the scanner's (day-content.ts); every scan varies the timings
 * and timestamps, and BENCH_HISTORY_CHANGE_SHARE of the domains (3 %) changes once during the day
 * (an SPF include, a DMARC policy, a block-list listing).
 *
 * Bytes are `pg_total_relation_size` (table, indexes, TOAST, free-space and visibility maps; summed over
 * a partitioned table's partitions) after
 * `vacuum analyze`; both scans tables and the new results tables are compacted first (`vacuum full`):
 * the new path updates the scan row it inserted, and concurrent inserts extend a table by many
 * empty pages at once; the scans table's size before compaction is printed for information. The scans table counts in both layouts (old scan rows existed too).
 * A day is measured from a first scan of every domain ("yesterday's last"), so it is a day of
 * steady state, not the first results of new domains. Then BENCH_HISTORY_QUIET rounds in which
 * nothing changes give the marginal bytes of an unchanged scan, the goal: at least 20× fewer than
 * the old layout. CPU: this process's user + system time around the new write loop, per scan.
 *
 *   pnpm --filter @sendwell/bench bench history
 *   BENCH_HISTORY_DOMAINS=300 BENCH_HISTORY_SCANS=96 BENCH_HISTORY_QUIET=8 BENCH_HISTORY_CHANGE_SHARE=0.03 BENCH_HISTORY_POOL=8
 *   BENCH_SMOKE=1 (lib/smoke.ts): 20 domains, 4 scans, 2 quiet rounds; no goal judged
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { CheckType } from '@sendwell/contracts';
import { createDb, sql, type Database } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { diffJson, ResultStore, ScanResults, type CheckToStore } from '@sendwell/scan-engine';
import { loadAverage } from '../lib/processes.js';
import { RESULTS_DIR, sized, SMOKE, smokeResult } from '../lib/smoke.js';
import { seededRandom } from '@sendwell/testing';
import { applyChange, changeKinds, checksOf, newDomainState, snapshotOf, volatileOf, type ChangeKind, type DomainState } from './day-content.js';
import { createLegacyLayout, recordLegacy, type LegacyScan } from './legacy-layout.js';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** 300, not 2,000: a day of 2,000 × 96 takes about 25 minutes on this shared 2-core machine; 300 × 96 about 4. */
const DOMAINS = sized('BENCH_HISTORY_DOMAINS', 300, 20);
const SCANS = sized('BENCH_HISTORY_SCANS', 96, 4);
const QUIET = sized('BENCH_HISTORY_QUIET', 8, 2);
const CHANGE_SHARE = sized('BENCH_HISTORY_CHANGE_SHARE', 0.03, 0.25);
const POOL = sized('BENCH_HISTORY_POOL', 8, 4);
const SAMPLE = sized(null, 300, 20);
const SEED = 28;
const INTERVAL_MS = 15 * 60_000;
const DAY_START = Date.parse('2026-12-01T00:00:00.000Z');
const CHECKS_PER_SCAN = 13;
const PROJECTED_DOMAINS = 1_000_000;
const PROJECTED_SCANS = 96;
const GOAL_RATIO = 20;

const NEW_TABLES = ['scans', 'check_results', 'dns_snapshots'] as const;
const OLD_TABLES = ['legacy_scans', 'legacy_domain_checks'] as const;
type Table = (typeof NEW_TABLES)[number] | (typeof OLD_TABLES)[number];
type Sizes = Record<Table, { bytes: number; rows: number }>;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const fix = (n: number, d = 1) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mb = (bytes: number) => `${fix(bytes / 1024 / 1024)} MB`;
const gb = (bytes: number) => `${fix(bytes / 1e9)} GB`;
const verdict = (pass: boolean) => (pass ? 'met' : 'not met');
const sum = (s: Sizes, tables: readonly Table[], key: 'bytes' | 'rows') => tables.reduce((t, name) => t + s[name][key], 0);

/** Runs `work(0..n-1)` with at most `width` at a time. */
async function pool(n: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, n) }, async () => {
    while (next < n) await work(next++);
  }));
}

/**
 * Sizes of both layouts' tables, vacuumed and analysed. The tables written concurrently are compacted
 * first: the new path updates the scan row it inserted (dead rows), and concurrent inserts extend a
 * table by many empty pages at once, which would hide the growth of the next measurement.
 */
async function measure(db: Database): Promise<{ sizes: Sizes; scansBeforeCompaction: number }> {
  const before = (await sql<{ bytes: string }>`select ${treeSize('scans')} as bytes`.execute(db)).rows[0]!;
  await sql`vacuum (full) scans, legacy_scans, check_results, dns_snapshots`.execute(db);
  await sql`vacuum analyze scans, legacy_scans, check_results, dns_snapshots, legacy_domain_checks`.execute(db);
  const sizes = {} as Sizes;
  for (const table of [...NEW_TABLES, ...OLD_TABLES]) {
    const row = (await sql<{ bytes: string; rows: string }>`select ${treeSize(table)} as bytes, (select count(*) from ${sql.table(table)}) as rows`.execute(db)).rows[0]!;
    sizes[table] = { bytes: Number(row.bytes), rows: Number(row.rows) };
  }
  return { sizes, scansBeforeCompaction: Number(before.bytes) };
}

/**
 * A table's bytes by `measure` (pg_total_relation_size by default) summed over its partitions: the
 * history tables are partitioned by month, and a partitioned table's own size is 0 (a table that is not
 * partitioned is measured itself).
 */
const treeSize = (table: string, measure: 'pg_total_relation_size' | 'pg_relation_size' | 'pg_indexes_size' = 'pg_total_relation_size') =>
  sql`(select case when count(*) = 0 then ${sql.raw(measure)}(${table}::regclass) else sum(${sql.raw(measure)}(relid)) end from pg_partition_tree(${table}::regclass) where isleaf)`;

const delta = (a: Sizes, b: Sizes) => Object.fromEntries(Object.entries(b).map(([t, v]) => [t, { bytes: v.bytes - a[t as Table].bytes, rows: v.rows - a[t as Table].rows }])) as Sizes;

function overallStatus(checks: readonly CheckToStore[]): string {
  if (checks.some((c) => c.status === 'error')) return 'critical';
  return checks.some((c) => c.status === 'warning') ? 'warning' : 'healthy';
}

interface RoundFigures {
  storeMs: number;
  storeCpuMs: number;
  legacyMs: number;
  contentBytes: number;
}

async function main() {
  const database = await createTestDatabase(SERVER_URL);
  const db = createDb({ connectionString: database.url, max: POOL + 2 });
  try {
    await createLegacyLayout(db);
    const user = await db.insertInto('users').values({ username: 'history', email: 'history@bench.example', passwordHash: 'x', planType: 'advanced' }).returning('id').executeTakeFirstOrThrow();
    const states: DomainState[] = Array.from({ length: DOMAINS }, (_, i) => newDomainState(i, SEED, DAY_START));
    const domainIds: number[] = [];
    for (let i = 0; i < DOMAINS; i += 5_000) {
      const rows = await db.insertInto('domains').values(states.slice(i, i + 5_000).map((s) => ({ userId: user.id, name: s.name, status: 'healthy' }))).returning('id').execute();
      domainIds.push(...rows.map((r) => r.id));
    }

    // Which domains change during the day, at which scan, and how.
    const pick = seededRandom(SEED);
    const order = states.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(pick() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const changing = Math.round(DOMAINS * CHANGE_SHARE);
    const changes = new Map<number, Array<{ domain: number; kind: ChangeKind }>>();
    order.slice(0, changing).forEach((domain, k) => {
      const at = SCANS > 1 ? 1 + Math.floor(pick() * (SCANS - 1)) : 0;
      changes.set(at, [...(changes.get(at) ?? []), { domain, kind: changeKinds[k % changeKinds.length]! }]);
    });

    const previousScan: Array<string | null> = Array.from({ length: DOMAINS }, () => null);
    const jitter = seededRandom(SEED + 1);
    const sampled: string[] = [];

    /** One 15-minute round: every domain scanned once, recorded both ways. */
    async function round(at: Date, sample: boolean): Promise<RoundFigures> {
      const scans = states.map((state) => {
        const v = volatileOf(jitter, state, at);
        return { checks: checksOf(state, v), snapshot: snapshotOf(state, v) };
      });
      const contentBytes = scans.reduce((t, s) => t + JSON.stringify(s.checks).length + JSON.stringify(s.snapshot).length, 0);
      const completedAt = new Date(at.getTime() + 4_000);
      const scanIds = new Map<number, string>();
      for (let i = 0; i < DOMAINS; i += 5_000) {
        const rows = await db
          .insertInto('scans')
          .values(scans.slice(i, i + 5_000).map((s, j) => ({ domainId: domainIds[i + j]!, trigger: 'scheduled', status: 'completed', overallStatus: overallStatus(s.checks), createdAt: at, startedAt: at, completedAt })))
          .returning(['id', 'domainId'])
          .execute();
        for (const r of rows) scanIds.set(r.domainId, r.id);
      }

      // The new write path, as the recorder runs it: the previous scan read back, the results stored, one transaction per scan.
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await pool(DOMAINS, POOL, async (i) => {
        const scanId = scanIds.get(domainIds[i]!)!;
        const previousId = previousScan[i];
        await db.transaction().execute(async (trx) => {
          const previous = previousId ? ((await new ScanResults(trx).stored([previousId])).get(previousId) ?? null) : null;
          await new ResultStore(trx).store({ scanId, domainId: domainIds[i]!, checks: scans[i]!.checks, snapshot: scans[i]!.snapshot, at: completedAt, previous });
        });
        previousScan[i] = scanId;
      });
      const storeMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);

      const t1 = performance.now();
      const legacy: LegacyScan[] = scans.map((s, i) => ({ scanId: scanIds.get(domainIds[i]!)!, domainId: domainIds[i]!, at: completedAt, checks: s.checks, snapshot: s.snapshot }));
      await recordLegacy(db, legacy);
      const legacyMs = performance.now() - t1;
      if (sample) sampled.push(...legacy.filter(() => jitter() < SAMPLE / (DOMAINS * SCANS)).map((s) => s.scanId));
      return { storeMs, storeCpuMs: (cpu.user + cpu.system) / 1000, legacyMs, contentBytes };
    }

    console.log(
      `scan history, stored on change vs one row per check per scan: ${int(DOMAINS)} domains × ${SCANS} scans 15 minutes apart (96 = a day), ` +
        `${fix(CHANGE_SHARE * 100)} % of domains changing once (${changing}), then ${QUIET} quiet rounds; write pool ${POOL}, ${cpus().length} cores; load ${loadAverage()}`,
    );
    const started = performance.now();
    await round(new Date(DAY_START - INTERVAL_MS), false);
    const m0 = await measure(db);

    const day: RoundFigures[] = [];
    for (let r = 0; r < SCANS; r++) {
      for (const { domain, kind } of changes.get(r) ?? []) applyChange(states[domain]!, kind);
      day.push(await round(new Date(DAY_START + r * INTERVAL_MS), true));
      if (!SMOKE && (r + 1) % 24 === 0) console.log(`  … ${r + 1}/${SCANS} rounds, ${fix((performance.now() - started) / 1000)} s, load ${loadAverage()}`);
    }
    const m1 = await measure(db);
    const quiet: RoundFigures[] = [];
    for (let r = 0; r < QUIET; r++) quiet.push(await round(new Date(DAY_START + (SCANS + r) * INTERVAL_MS), false));
    const m2 = await measure(db);
    // What a new scan row is made of (averages over every row, after compaction).
    const anatomy = (await sql<{ row: string; patches: string; ids: string; heap: string; indexes: string; n: string }>`
      select avg(pg_column_size(s.*)) as row, avg(coalesce(pg_column_size(s.result_patches), 0)) as patches, avg(pg_column_size(s.check_result_ids)) as ids,
        ${treeSize('scans', 'pg_relation_size')} as heap, ${treeSize('scans', 'pg_indexes_size')} as indexes, count(*) as n
      from scans s`.execute(db)).rows.map((r) => ({ row: Number(r.row), patches: Number(r.patches), ids: Number(r.ids), heapPerRow: Number(r.heap) / Number(r.n), indexesPerRow: Number(r.indexes) / Number(r.n) }))[0]!;
    const elapsedS = (performance.now() - started) / 1000;

    // What each layout reads back for a sample of the day's scans must be the same.
    const stored = new ScanResults(db);
    const [checks, snapshots] = await Promise.all([stored.checksOfScans(sampled), stored.snapshotsOf(sampled)]);
    const oldChecks = (await sql<{ scan: string; type: string; status: string; value: string | null; message: string | null; recommendation: string | null; details: string }>`
      select scan_id::text as scan, type, status, value, message, recommendation, details::text as details from legacy_domain_checks where scan_id = any(${sampled}::uuid[])`.execute(db)).rows;
    const oldSnapshots = (await sql<{ scan: string; snapshot: string }>`select id::text as scan, dns_snapshot::text as snapshot from legacy_scans where id = any(${sampled}::uuid[])`.execute(db)).rows;
    const mismatches = [
      ...oldChecks.filter((o) => {
        const n = checks.get(o.scan)?.find((c) => c.type === (o.type as CheckType));
        const content = (c: { status: string; value: string | null; message: string | null; recommendation: string | null; details: unknown }) => ({ status: c.status, value: c.value, message: c.message, recommendation: c.recommendation, details: c.details });
        return !n || diffJson(content(n), content({ ...o, details: JSON.parse(o.details) as unknown })) !== null;
      }),
      ...oldSnapshots.filter((o) => diffJson(snapshots.get(o.scan) ?? null, JSON.parse(o.snapshot)) !== null),
    ].length;
    const compared = oldChecks.length + oldSnapshots.length;

    // The day, as each layout stores it.
    const d = delta(m0.sizes, m1.sizes);
    const q = delta(m1.sizes, m2.sizes);
    const dayScans = DOMAINS * SCANS;
    const quietScans = DOMAINS * QUIET;
    const old = { rows: sum(d, OLD_TABLES, 'rows'), bytes: sum(d, OLD_TABLES, 'bytes'), quietBytes: sum(q, OLD_TABLES, 'bytes') };
    const now = { rows: sum(d, NEW_TABLES, 'rows'), bytes: sum(d, NEW_TABLES, 'bytes'), quietBytes: sum(q, NEW_TABLES, 'bytes') };
    const resultRows = d.check_results.rows + d.dns_snapshots.rows;
    const resultBytes = d.check_results.bytes + d.dns_snapshots.bytes;
    const quietResults = q.check_results.rows + q.dns_snapshots.rows;
    const oldPerScan = old.bytes / dayScans;
    const newPerScan = now.bytes / dayScans;
    const oldUnchanged = old.quietBytes / quietScans;
    const newUnchanged = now.quietBytes / quietScans;
    const unchangedRatio = oldUnchanged / newUnchanged;
    // The same from whole tables, free of the 8 KB page granularity of a small quiet pass: an old scan
    // costs its share of both old tables; an unchanged new one adds only its scan row.
    const oldAverage = sum(m2.sizes, OLD_TABLES, 'bytes') / m2.sizes.legacy_scans.rows;
    const newScanRow = m2.sizes.scans.bytes / m2.sizes.scans.rows;
    const storeCpuMs = day.reduce((t, r) => t + r.storeCpuMs, 0);
    const storeMs = day.reduce((t, r) => t + r.storeMs, 0);
    const legacyMs = day.reduce((t, r) => t + r.legacyMs, 0);
    const contentPerScan = day.reduce((t, r) => t + r.contentBytes, 0) / dayScans;
    const changedDomains = new Set([...changes.values()].flat().map((c) => c.domain)).size;

    const w = 22;
    const times = (ratio: number | undefined) => (ratio === undefined ? '' : Number.isFinite(ratio) && ratio > 0 ? `${fix(ratio)}×` : '—');
    const row = (label: string, o: string, n: string, ratio?: number) => console.log(`  ${label.padEnd(34)}${o.padStart(w)}${n.padStart(w)}${times(ratio).padStart(12)}`);
    console.log(`\nthe day: ${int(dayScans)} scans (${int(DOMAINS)} domains × ${SCANS}), ${changedDomains} domains changed; a scan's content is ${int(contentPerScan)} B of JSON (13 checks + snapshot)`);
    row('', 'old (row per check)', 'new (on change)', undefined);
    console.log(`${''.padEnd(2 + 34 + w * 2)}${'old / new'.padStart(12)}`);
    row('rows per day: check results', `${int(d.legacy_domain_checks.rows)}`, `${int(d.check_results.rows)}`, d.legacy_domain_checks.rows / d.check_results.rows);
    row('              DNS snapshots', `${int(d.legacy_scans.rows)} in scan rows`, `${int(d.dns_snapshots.rows)}`, d.legacy_scans.rows / d.dns_snapshots.rows);
    row('              scan rows', `${int(d.legacy_scans.rows)}`, `${int(d.scans.rows)}`);
    row('              all rows', `${int(old.rows)}`, `${int(now.rows)}`, old.rows / now.rows);
    row('bytes per day: results tables', mb(d.legacy_domain_checks.bytes), mb(resultBytes), d.legacy_domain_checks.bytes / resultBytes);
    row('               scans table', mb(d.legacy_scans.bytes), mb(d.scans.bytes), d.legacy_scans.bytes / d.scans.bytes);
    row('               all', mb(old.bytes), mb(now.bytes), old.bytes / now.bytes);
    row('bytes per domain per day', `${int(old.bytes / DOMAINS)} B`, `${int(now.bytes / DOMAINS)} B`, old.bytes / now.bytes);
    row('bytes per scan, overall', `${int(oldPerScan)} B`, `${int(newPerScan)} B`, oldPerScan / newPerScan);
    row('bytes per unchanged scan', `${int(oldUnchanged)} B`, `${int(newUnchanged)} B`, unchangedRatio);
    row('  the same from whole tables', `${int(oldAverage)} B`, `${int(newScanRow)} B`, oldAverage / newScanRow);
    console.log(
      `  (unchanged: the ${QUIET} quiet rounds after the day, ${int(quietScans)} scans, ${quietResults} results stored by the new layout. Whole tables: old bytes / scans, new scans-table bytes / scan rows. ` +
        `The new scans table before compaction: ${mb(m2.scansBeforeCompaction)}, after: ${mb(m2.sizes.scans.bytes)}: the dead rows of the update that adds the references)`,
    );
    console.log(
      `  a new scan row: ${int(anatomy.row)} B on average (patches ${int(anatomy.patches)} B, result ids ${int(anatomy.ids)} B); the scans table per row: heap ${int(anatomy.heapPerRow)} B + indexes ${int(anatomy.indexesPerRow)} B (+ maps)`,
    );
    const examplePatch = (await sql<{ patch: string | null }>`select result_patches::text as patch from scans order by completed_at desc, id limit 1`.execute(db)).rows[0]?.patch ?? 'null';
    console.log(`  the patch of the last scan (${examplePatch.length} B as text): ${examplePatch}`);
    console.log(`  goal: ≥ ${GOAL_RATIO}× fewer bytes per unchanged scan — ${fix(unchangedRatio)}× — ${SMOKE ? 'not judged (smoke)' : verdict(unchangedRatio >= GOAL_RATIO)}`);
    console.log(`  sample read back through ScanResults: ${compared} check rows and snapshots of ${sampled.length} scans compared with the old layout's, ${mismatches} differ`);

    // Projection: old grows with every scan; new with every scan's row plus the results that changed.
    const oldProjectedRows = PROJECTED_DOMAINS * PROJECTED_SCANS * (CHECKS_PER_SCAN + 1);
    const resultsPerDomainDay = resultRows / DOMAINS;
    const newProjectedRows = PROJECTED_DOMAINS * PROJECTED_SCANS + PROJECTED_DOMAINS * resultsPerDomainDay;
    const oldProjectedBytes = PROJECTED_DOMAINS * PROJECTED_SCANS * oldPerScan;
    const newScanRowBytes = d.scans.bytes / dayScans;
    const newProjectedBytes = PROJECTED_DOMAINS * (PROJECTED_SCANS * newScanRowBytes + resultBytes / DOMAINS);
    console.log(`\nprojection to ${int(PROJECTED_DOMAINS)} domains × ${PROJECTED_SCANS} scans a day (the day's per-scan and per-domain figures, changes at ${fix(CHANGE_SHARE * 100)} % of domains a day):`);
    console.log(`  old rows/day = 1e6 × 96 × (13 check rows + 1 scan row)                                      = ${int(oldProjectedRows)}`);
    console.log(`  new rows/day = 1e6 × 96 scan rows + 1e6 × ${fix(resultsPerDomainDay, 3)} results stored per domain-day       = ${int(newProjectedRows)}   (old / new ${fix(oldProjectedRows / newProjectedRows)}×)`);
    console.log(`  old bytes/day = 1e6 × 96 × ${int(oldPerScan)} B per scan                                         = ${gb(oldProjectedBytes)}`);
    console.log(`  new bytes/day = 1e6 × (96 × ${int(newScanRowBytes)} B per scan row + ${int(resultBytes / DOMAINS)} B of results per domain-day) = ${gb(newProjectedBytes)}   (old / new ${fix(oldProjectedBytes / newProjectedBytes)}×)`);
    console.log(
      `\nnew write path CPU: ${fix(storeCpuMs / dayScans, 3)} ms per recorded scan in this process (previous scan read back + store, ${POOL} at a time), ` +
        `${fix(storeMs / 1000)} s for ${int(dayScans)} scans = ${int((dayScans * 1000) / storeMs)} scans/s wall; old layout bulk inserts ${fix(legacyMs / 1000)} s (not the old per-scan path, for information)`,
    );
    console.log(`whole run ${fix(elapsedS)} s; load average ${loadAverage()} (the machine is shared: other work takes CPU from every timing above)`);

    const figures = {
      date: new Date().toISOString(),
      cores: cpus().length,
      domains: DOMAINS,
      scansPerDomain: SCANS,
      quietRounds: QUIET,
      changeShare: CHANGE_SHARE,
      changedDomains,
      contentBytesPerScan: contentPerScan,
      day: { tables: d, old, new: now, resultRows, resultBytes },
      quiet: { tables: q, resultsStored: quietResults },
      bytesPerScan: { old: oldPerScan, new: newPerScan },
      bytesPerUnchangedScan: { old: oldUnchanged, new: newUnchanged, ratio: unchangedRatio, goal: GOAL_RATIO, met: unchangedRatio >= GOAL_RATIO },
      newScanRow: anatomy,
      bytesPerScanWholeTables: { old: oldAverage, newScanRow, ratio: oldAverage / newScanRow },
      projection: { domains: PROJECTED_DOMAINS, scansPerDay: PROJECTED_SCANS, rows: { old: oldProjectedRows, new: newProjectedRows }, bytes: { old: oldProjectedBytes, new: newProjectedBytes } },
      newWritePath: { cpuMsPerScan: storeCpuMs / dayScans, scansPerSecond: (dayScans * 1000) / storeMs, pool: POOL },
      readBack: { compared, mismatches },
      elapsedS,
      loadAverage: loadAverage(),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(`${RESULTS_DIR}history.json`, `${JSON.stringify(figures, null, 2)}\n`);
    smokeResult('history', {
      counts: { 'scans recorded': dayScans + quietScans, 'old rows per day': old.rows, 'new rows per day': now.rows, 'results stored on change': resultRows, 'old bytes per scan (whole tables)': oldAverage, 'new bytes per scan row (whole table)': newScanRow, 'read-back comparisons': compared },
      values: { 'new write CPU ms per scan': storeCpuMs / dayScans, 'old bytes per unchanged scan (quiet pass)': oldUnchanged, 'new bytes per unchanged scan (quiet pass)': newUnchanged },
      conditions: {
        'every scan recorded both ways': d.scans.rows === dayScans && d.legacy_scans.rows === dayScans && d.legacy_domain_checks.rows === dayScans * CHECKS_PER_SCAN,
        'quiet rounds store no result': quietResults === 0,
        'new layout reads back what the old one holds': mismatches === 0,
      },
    });
  } finally {
    await db.destroy();
    await database.drop();
  }
}

await main();
