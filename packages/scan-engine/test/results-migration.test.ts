import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDb, migrations, sql, type Database, type Kysely } from '@sendwell/db';
import { seededRandom } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ScanResults, type ScanCheck } from '../src/results/scan-results.js';
import { canonicalJson } from './canonical-json.js';

/*
 * The migration to results stored on change (2026-11-28T00-00_results-on-change), and the month
 * partitions after it (2026-11-29T00-00_history-partitions), run on a history
 * written in the old layout (a domain_checks row per check per scan, scans.dns_snapshot per scan):
 * every scan must read back, through ScanResults, exactly what it held before, with each change
 * stored once under its first row's id, and alerts still naming their check.
 */

// The scan engine does not depend on pg or kysely itself: take the ones @sendwell/db runs on (the
// same ESM kysely its migrations import), as packages/db/src/migrate.ts does.
type Migration = (typeof migrations)[string];
interface MigrationResultSet {
  error?: unknown;
  results?: { migrationName: string; status: string }[];
}
interface KyselyModule {
  Kysely: new (config: { dialect: unknown }) => Kysely<unknown>;
  PostgresDialect: new (config: { pool: unknown }) => unknown;
  Migrator: new (config: { db: Kysely<unknown>; provider: { getMigrations(): Promise<Record<string, Migration>> } }) => {
    migrateToLatest(): Promise<MigrationResultSet>;
  };
}
interface PgClient {
  connect(): Promise<void>;
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  end(): Promise<void>;
}
interface PgModule {
  Client: new (config: { connectionString: string }) => PgClient;
  Pool: new (config: { connectionString: string; max: number }) => unknown;
}
const requireFromDb = createRequire(createRequire(import.meta.url).resolve('@sendwell/db'));
const pg = requireFromDb('pg') as PgModule;
const kyselyEsm = join(dirname(requireFromDb.resolve('kysely')), '..', 'esm', 'index.js');
const { Kysely: KyselyClass, Migrator, PostgresDialect } = (await import(pathToFileURL(kyselyEsm).href)) as KyselyModule;

const MIGRATION = '2026-11-28T00-00_results-on-change';
const TIMEOUT = 120_000;

// ---------------------------------------------------------------------------------------------
// A deterministic history in the old layout.

const random = seededRandom(20261128);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => random() < p;
const uuid = () => {
  const hex = Array.from({ length: 32 }, () => int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
};


interface Content {
  status: string;
  value: string | null;
  message: string | null;
  recommendation: string | null;
  details: Record<string, unknown>;
}
type Snapshot = Record<string, unknown>;
interface GenScan {
  id: string;
  domainIndex: number;
  status: 'completed' | 'failed' | 'running';
  error: string | null;
  createdAt: Date;
  completedAt: Date | null;
  snapshot: Snapshot | null;
  checks: Map<string, Content>;
}

const TYPES = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance', 'mta_sts', 'dnssec'] as const;
const STATUSES = ['valid', 'success', 'warning', 'error', 'missing', 'unknown'];
const DOMAINS = 3;
const SCANS_PER_DOMAIN = 300;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

const clone = <T>(v: T): T => structuredClone(v);

function initialContent(type: string): Content {
  // Not domain specific: two domains may hold the same content, and must still be stored apart.
  return {
    status: type === 'dnssec' ? 'missing' : 'valid',
    value: type === 'blacklist' ? null : `${type} record`,
    message: `${type} looks fine`,
    recommendation: type === 'dmarc' ? 'Move to p=reject' : null,
    details: type === 'dns_performance' ? { queryMs: 40, resolvers: ['1.1.1.1', '8.8.8.8'] } : { score: 80, hosts: ['mx1.example'], nested: { checked: 2, flags: ['a'] } },
  };
}

let mutation = 0;
function mutate(type: string, c: Content): Content {
  mutation += 1;
  const next = clone(c);
  if (type === 'dns_performance') {
    next.details = { ...next.details, queryMs: 20 + int(200) };
    if (chance(0.1)) next.status = pick(['success', 'warning']);
    return next;
  }
  const details = next.details as { score?: number; extra?: string; nested?: { flags: string[] } };
  switch (int(6)) {
    case 0:
      next.status = pick(STATUSES.filter((s) => s !== c.status));
      break;
    case 1:
      next.message = `${type} changed (${mutation})`;
      break;
    case 2:
      details.score = ((details.score ?? 0) + 1 + int(5)) % 101;
      break;
    case 3:
      if ('extra' in details) delete details.extra;
      else details.extra = `note ${mutation}`;
      break;
    case 4:
      if (details.nested) details.nested.flags = details.nested.flags.length > 2 ? ['a'] : [...details.nested.flags, `f${mutation}`];
      else details.score = 1;
      break;
    default:
      next.value = next.value === null ? `${type} value ${mutation}` : null;
  }
  return next;
}

function initialSnapshot(d: number): Snapshot {
  return {
    a: [`192.0.2.${10 + d}`],
    aaaa: [],
    mx: [{ exchange: `mx1.d${d}.example`, priority: 10, ips: [`198.51.100.${d}`] }],
    ns: ['ns1.example', 'ns2.example'],
    txt: ['v=spf1 -all'],
    spfRecord: 'v=spf1 -all',
    dmarcRecord: 'v=DMARC1; p=none',
    failed: [],
  };
}

function mutateSnapshot(s: Snapshot): Snapshot {
  mutation += 1;
  const next = clone(s);
  switch (int(4)) {
    case 0:
      next.a = [...(next.a as string[]), `203.0.113.${mutation % 250}`].sort();
      break;
    case 1:
      next.txt = [`token-${mutation}`];
      break;
    case 2:
      (next.mx as { ips: string[] }[])[0]!.ips = [`198.51.100.${mutation % 250}`];
      break;
    default:
      next.failed = (next.failed as string[]).length > 0 ? [] : ['txt'];
  }
  return next;
}

function generate(): { scans: GenScan[]; domainScans: GenScan[][] } {
  const domainScans: GenScan[][] = [];
  for (let d = 0; d < DOMAINS; d++) {
    const state = new Map<string, Content>(TYPES.map((t) => [t, initialContent(t)]));
    let snapshot = initialSnapshot(d);
    let beforeRevert: Snapshot | null = null;
    const scans: GenScan[] = [];
    for (let i = 0; i < SCANS_PER_DOMAIN; i++) {
      const createdAt = new Date(T0 + i * 15 * 60_000 + d * 37_000 + int(1000));
      const completedAt = new Date(createdAt.getTime() + 4_000 + int(5_000));
      const failed = (d === 0 && i === 75) || (d === 1 && i === 200) || (d === 2 && (i === 75 || i === 200));
      if (failed) {
        scans.push({ id: uuid(), domainIndex: d, status: 'failed', error: 'DNS timeout', createdAt, completedAt, snapshot: null, checks: new Map() });
        continue;
      }
      // The content changes a few times; dns_performance (a timing) often.
      for (const type of TYPES) if (chance(type === 'dns_performance' ? 0.25 : 0.012)) state.set(type, mutate(type, state.get(type)!));
      // Nulls against values, and an empty string against null.
      const set = (type: string, patch: Partial<Content>) => state.set(type, { ...state.get(type)!, ...patch });
      if (d === 0 && i === 90) set('spf', { value: null });
      if (d === 0 && i === 95) set('spf', { value: 'v=spf1 include:_spf.example -all' });
      if (d === 1 && i === 100) set('dmarc', { recommendation: null });
      if (d === 1 && i === 110) set('dmarc', { recommendation: 'Publish p=reject' });
      if (i === 130) set('blacklist', { message: '' });
      if (i === 131) set('blacklist', { message: null });
      if (i === 132) set('blacklist', { message: 'Listed on none' });
      // Changed while missing from scans 120-122 (domain 0): it comes back different.
      if (d === 0 && i === 121) set('mta_sts', { status: 'warning', message: 'policy mode testing' });

      if (chance(0.02)) snapshot = mutateSnapshot(snapshot);
      if (d === 0 && i === 180) {
        beforeRevert = snapshot;
        snapshot = { ...snapshot, ns: ['ns9.example'] };
      }
      if (d === 0 && i === 181 && beforeRevert) snapshot = beforeRevert; // back to the earlier records: a change again
      const taken: Snapshot = { takenAt: completedAt.toISOString(), ...clone(snapshot) };
      // An old snapshot without takenAt, otherwise as the scan before; and one that starts a run,
      // the scans after it (with their takenAt) repeating it.
      if (d === 1 && i === 150) delete taken.takenAt;
      if (d === 2 && i === 160) {
        snapshot = { ...snapshot, dmarcRecord: 'v=DMARC1; p=quarantine' };
        Object.assign(taken, clone(snapshot));
        delete taken.takenAt;
      }

      const checks = new Map<string, Content>();
      for (const type of TYPES) {
        if (type === 'dkim' && i === 40) continue; // one scan without it
        if (type === 'mta_sts' && i >= 120 && i <= 122) continue;
        if (type === 'dnssec' && i < 60) continue; // a check type added later
        if (type === 'ssl_certificate' && d === 2 && i >= 250) continue; // and one dropped
        checks.set(type, clone(state.get(type)!));
      }
      scans.push({ id: uuid(), domainIndex: d, status: 'completed', error: null, createdAt, completedAt, snapshot: taken, checks });
    }
    // A scan in flight while the migration runs.
    if (d === 2) {
      const createdAt = new Date(T0 + SCANS_PER_DOMAIN * 15 * 60_000);
      scans.push({ id: uuid(), domainIndex: d, status: 'running', error: null, createdAt, completedAt: null, snapshot: null, checks: new Map() });
    }
    domainScans.push(scans);
  }
  const scans = domainScans.flat().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return { scans, domainScans };
}

/** How many rows differ from the one before them (the first counts): what store-on-change keeps. */
function countChanges<T>(items: readonly T[]): number {
  let previous: string | undefined;
  let changes = 0;
  for (const item of items) {
    const key = canonicalJson(item);
    if (key !== previous) changes += 1;
    previous = key;
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------
// The old layout as read before the migration.

interface OldCheckRow extends Content {
  id: number;
  scan_id: string;
  domain_id: number;
  type: string;
  created_at: Date;
}
interface OldScanRow {
  id: string;
  domain_id: number;
  status: string;
  dns_snapshot: Snapshot | null;
  created_at: Date;
  completed_at: Date | null;
}
interface OldAlertRow {
  id: number;
  check_id: number | null;
  domain_id: number;
  type: string;
}

const contentOf = (row: Content): Content => ({
  status: row.status,
  value: row.value,
  message: row.message,
  recommendation: row.recommendation,
  details: row.details,
});
const checkView = (c: Content & { type: string; createdAt: Date }) => ({ type: c.type, ...contentOf(c), createdAt: c.createdAt });
const byType = <T extends { type: string }>(a: T, b: T) => a.type.localeCompare(b.type);

/** Each old check row's run leader: the first row of its domain's unbroken run of that content. */
function runLeaders(rows: readonly OldCheckRow[]): Map<number, number> {
  const groups = new Map<string, OldCheckRow[]>();
  for (const row of rows) {
    const key = `${row.domain_id}/${row.type}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const leaders = new Map<number, number>();
  for (const group of groups.values()) {
    group.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id);
    let leader = 0;
    let previous: string | undefined;
    for (const row of group) {
      const key = canonicalJson(contentOf(row));
      if (key !== previous) leader = row.id;
      previous = key;
      leaders.set(row.id, leader);
    }
  }
  return leaders;
}

// ---------------------------------------------------------------------------------------------

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function migrate(connectionString: string, provided: Record<string, Migration>): Promise<string[]> {
  const db = new KyselyClass({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }) });
  try {
    const result = await new Migrator({ db, provider: { getMigrations: async () => provided } }).migrateToLatest();
    if (result.error) throw result.error;
    return (result.results ?? []).map((r) => `${r.migrationName}: ${r.status}`);
  } finally {
    await db.destroy();
  }
}

async function connect(connectionString: string): Promise<PgClient> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}

const serverUrl = withDatabase(inject('postgresUrl'), 'postgres');
const dbName = `results_migration_${randomBytes(6).toString('hex')}`;
const url = withDatabase(serverUrl, dbName);
const history = generate();
let created = false;
let db: Database | undefined;

const before = {
  scans: [] as OldScanRow[],
  checks: [] as OldCheckRow[],
  alerts: [] as OldAlertRow[],
  leaders: new Map<number, number>(),
  maxCheckId: 0,
};
let ranMigrations: string[] = [];

beforeAll(async () => {
  // 1. A fresh, empty database.
  const admin = await connect(serverUrl);
  try {
    await admin.query(`create database "${dbName}"`);
    created = true;
  } finally {
    await admin.end();
  }

  // 2. Every migration before the one under test.
  const older = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < MIGRATION));
  const olderRan = await migrate(url, older);
  expect(olderRan).toEqual(Object.keys(older).sort().map((name) => `${name}: Success`));

  // 3. The history in the old layout.
  const client = await connect(url);
  try {
    const users = await client.query<{ id: number }>(
      `insert into users (username, email, password_hash, plan_type) values
        ('mig-a', 'mig-a@example.com', 'x', 'standard'), ('mig-b', 'mig-b@example.com', 'x', 'basic')
       returning id`,
    );
    const userIds = users.rows.map((r) => r.id);
    const domainOwners = [userIds[0]!, userIds[0]!, userIds[1]!];
    const domainIds: number[] = [];
    for (let d = 0; d < DOMAINS; d++) {
      const { rows } = await client.query<{ id: number }>('insert into domains (user_id, name) values ($1, $2) returning id', [domainOwners[d], `mig${d}.example`]);
      domainIds.push(rows[0]!.id);
    }

    const scanRows = history.scans.map((s) => ({
      id: s.id,
      domain_id: domainIds[s.domainIndex],
      trigger: 'scheduled',
      status: s.status,
      error: s.error,
      ...(s.snapshot ? { dns_snapshot: s.snapshot } : {}),
      created_at: s.createdAt.toISOString(),
      started_at: s.createdAt.toISOString(),
      completed_at: s.completedAt?.toISOString() ?? null,
    }));
    await client.query(
      `insert into scans (id, domain_id, trigger, status, error, dns_snapshot, created_at, started_at, completed_at)
       select id, domain_id, trigger, status, error, dns_snapshot, created_at, started_at, completed_at
       from jsonb_to_recordset($1::jsonb) as x(id uuid, domain_id int, trigger text, status text, error text,
         dns_snapshot jsonb, created_at timestamptz, started_at timestamptz, completed_at timestamptz)`,
      [JSON.stringify(scanRows)],
    );
    // In time order, as the recorder wrote them; created_at is the scan's completion.
    const checkRows = history.scans.flatMap((s) =>
      [...s.checks].map(([type, c]) => ({
        ord: 0,
        domain_id: domainIds[s.domainIndex],
        scan_id: s.id,
        type,
        ...c,
        created_at: s.completedAt!.toISOString(),
      })),
    );
    checkRows.forEach((row, i) => (row.ord = i));
    await client.query(
      `insert into domain_checks (domain_id, scan_id, type, status, value, message, recommendation, details, created_at)
       select domain_id, scan_id, type, status, value, message, recommendation, details, created_at
       from jsonb_to_recordset($1::jsonb) as x(domain_id int, scan_id uuid, type text, status text, value text,
         message text, recommendation text, details jsonb, created_at timestamptz, ord int)
       order by ord`,
      [JSON.stringify(checkRows)],
    );

    // 4. Before: every scan's checks and snapshot.
    before.scans = (await client.query<OldScanRow>('select id, domain_id, status, dns_snapshot, created_at, completed_at from scans')).rows;
    before.checks = (
      await client.query<OldCheckRow>('select id, scan_id, domain_id, type, status, value, message, recommendation, details, created_at from domain_checks')
    ).rows;
    before.leaders = runLeaders(before.checks);
    before.maxCheckId = Math.max(...before.checks.map((c) => c.id));

    // Alerts naming a run's first row, a repeated row, a run's last row, a row just after a gap, none.
    const rowAt = (d: number, i: number, type: string) => {
      const scanId = history.domainScans[d]![i]!.id;
      return before.checks.find((c) => c.scan_id === scanId && c.type === type)!;
    };
    const repeated = (d: number, type: string, from: number) => {
      for (let i = from; ; i++) {
        const row = rowAt(d, i, type);
        if (row && before.leaders.get(row.id) !== row.id) return row;
      }
    };
    const runStart = (d: number, type: string, from: number) => {
      for (let i = from; ; i++) {
        const row = rowAt(d, i, type);
        if (row && before.leaders.get(row.id) === row.id && i > 0) return row;
      }
    };
    const lastOfRun = (d: number, type: string, from: number) => {
      for (let i = from; ; i++) {
        const row = rowAt(d, i, type);
        const next = rowAt(d, i + 1, type);
        if (row && next && before.leaders.get(row.id) !== row.id && before.leaders.get(next.id) === next.id) return row;
      }
    };
    const targets: { domain: number; check: OldCheckRow | null; type: string }[] = [
      { domain: 0, check: repeated(0, 'spf', 30), type: 'spf_changed' },
      { domain: 0, check: runStart(0, 'dns_performance', 10), type: 'dns_change' },
      { domain: 1, check: lastOfRun(1, 'dns_performance', 50), type: 'dns_change' },
      { domain: 2, check: rowAt(2, 41, 'dkim'), type: 'dkim_changed' },
      { domain: 1, check: rowAt(1, 123, 'mta_sts'), type: 'mta_sts_changed' },
      { domain: 0, check: rowAt(0, 123, 'mta_sts'), type: 'mta_sts_changed' },
      { domain: 2, check: null, type: 'blacklist' },
    ];
    for (const t of targets) {
      await client.query(
        `insert into domain_alerts (domain_id, user_id, type, severity, title, message, details, check_id)
         values ($1, $2, $3, 'high', 'Changed', 'Something changed', $4::jsonb, $5)`,
        [domainIds[t.domain], domainOwners[t.domain], t.type, JSON.stringify({ note: t.type }), t.check?.id ?? null],
      );
    }
    before.alerts = (await client.query<OldAlertRow>('select id, check_id, domain_id, type from domain_alerts order by id')).rows;
  } finally {
    await client.end();
  }

  // 5. The migration under test, and those after it (the history's month partitions move the rows again).
  ranMigrations = await migrate(url, migrations);
  db = createDb({ connectionString: url, max: 2, applicationName: 'results-migration-test' });
}, TIMEOUT);

afterAll(async () => {
  await db?.destroy();
  if (!created) return;
  const admin = await connect(serverUrl);
  try {
    await admin.query(`drop database if exists "${dbName}" with (force)`);
  } finally {
    await admin.end();
  }
}, TIMEOUT);

describe('migration results-on-change', () => {
  it('wrote the history intended, and ran itself and the migrations after it', () => {
    expect(ranMigrations).toEqual(Object.keys(migrations).filter((name) => name >= MIGRATION).sort().map((name) => `${name}: Success`));
    expect(ranMigrations).toContain('2026-11-29T00-00_history-partitions: Success');
    expect(before.scans).toHaveLength(history.scans.length);
    expect(before.checks).toHaveLength(history.scans.reduce((n, s) => n + s.checks.size, 0));
    expect(before.scans.filter((s) => s.dns_snapshot === null).map((s) => s.status).sort()).toEqual(['failed', 'failed', 'failed', 'failed', 'running']);
    // Every case meant to be there is: repeats, changes, gaps, nulls, a snapshot without takenAt.
    expect(before.checks.length).toBeGreaterThan(6000);
    expect(new Set(before.leaders.values()).size).toBeLessThan(before.checks.length / 3);
    expect(before.checks.some((c) => c.message === '')).toBe(true);
    expect(before.scans.some((s) => s.dns_snapshot && !('takenAt' in s.dns_snapshot))).toBe(true);
    expect(before.alerts.filter((a) => a.check_id === null)).toHaveLength(1);
  });

  it('gives every scan exactly the checks it had, under the id of its run’s first row', { timeout: TIMEOUT }, async () => {
    const scanIds = before.scans.map((s) => s.id);
    const after = await new ScanResults(db!).checksOfScans(scanIds);
    expect([...after.keys()].sort()).toEqual([...scanIds].sort());
    const oldByScan = new Map<string, OldCheckRow[]>(scanIds.map((id) => [id, []]));
    for (const c of before.checks) oldByScan.get(c.scan_id)!.push(c);
    for (const scan of before.scans) {
      const old = oldByScan.get(scan.id)!.sort(byType);
      const got: ScanCheck[] = [...after.get(scan.id)!].sort(byType);
      expect(got.map(checkView), `scan ${scan.id}`).toStrictEqual(old.map((c) => checkView({ ...c, createdAt: c.created_at })));
      expect(got.map((c) => c.id)).toEqual(old.map((c) => before.leaders.get(c.id)));
      expect(got.every((c) => c.scanId === scan.id && c.domainId === scan.domain_id)).toBe(true);
    }
  });

  it('gives every scan the snapshot it had', { timeout: TIMEOUT }, async () => {
    const scanIds = before.scans.map((s) => s.id);
    const after = await new ScanResults(db!).snapshotsOf(scanIds);
    const withSnapshot = before.scans.filter((s) => s.dns_snapshot !== null);
    expect([...after.keys()].sort()).toEqual(withSnapshot.map((s) => s.id).sort());
    for (const scan of withSnapshot) expect(after.get(scan.id), `scan ${scan.id}`).toStrictEqual(scan.dns_snapshot);
  });

  it('loses and gains no scan', async () => {
    const rows = await db!.selectFrom('scans').select(['id', 'domainId', 'status', 'createdAt', 'completedAt', 'checkResultIds']).execute();
    expect(rows.map((r) => ({ id: r.id, domainId: r.domainId, status: r.status, createdAt: r.createdAt, completedAt: r.completedAt })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      before.scans.map((s) => ({ id: s.id, domainId: s.domain_id, status: s.status, createdAt: s.created_at, completedAt: s.completed_at })).sort((a, b) => a.id.localeCompare(b.id)),
    );
    const withChecks = new Set(before.checks.map((c) => c.scan_id));
    for (const r of rows) expect(r.checkResultIds === null).toBe(!withChecks.has(r.id));
  });

  it("fills the timeline's daily summary: per domain and UTC day, the completed scans and the last one's checks", async () => {
    const expected = new Map<string, { scans: number; last: OldScanRow }>();
    for (const scan of before.scans.filter((s) => s.status === 'completed')) {
      const key = `${scan.domain_id} ${scan.created_at.toISOString().slice(0, 10)}`;
      const day = expected.get(key);
      if (!day) expected.set(key, { scans: 1, last: scan });
      else {
        day.scans += 1;
        const later = scan.created_at.getTime() - day.last.created_at.getTime() || scan.id.localeCompare(day.last.id);
        if (later > 0) day.last = scan;
      }
    }
    const { rows } = await sql<{ domainId: number; day: string; scans: number; lastScanId: string; checks: string[] }>`
      select domain_id, to_char(day, 'YYYY-MM-DD') as day, scans, last_scan_id::text, checks from scan_days`.execute(db!);
    expect(rows).toHaveLength(expected.size);
    expect(expected.size).toBeGreaterThan(6);
    for (const row of rows) {
      const day = expected.get(`${row.domainId} ${row.day}`)!;
      expect({ scans: row.scans, lastScanId: row.lastScanId }).toEqual({ scans: day.scans, lastScanId: day.last.id });
      const checks = before.checks.filter((c) => c.scan_id === day.last.id).map((c) => `${c.type}=${c.status}`).sort();
      expect(row.checks).toEqual(checks);
    }
  });

  it('stores each check change once, under its old id and with its content', async () => {
    // Counted from the generated history: per domain and type, a row differing from the one before.
    const generated = history.domainScans.reduce(
      (n, scans) => n + TYPES.reduce((m, type) => m + countChanges(scans.flatMap((s) => (s.checks.has(type) ? [s.checks.get(type)!] : []))), 0),
      0,
    );
    const expectedIds = [...new Set(before.leaders.values())].sort((a, b) => a - b);
    expect(expectedIds).toHaveLength(generated);
    const stored = await db!.selectFrom('checkResults').selectAll().orderBy('id').execute();
    expect(stored.map((r) => r.id)).toEqual(expectedIds);
    const oldById = new Map(before.checks.map((c) => [c.id, c]));
    for (const row of stored) {
      const old = oldById.get(row.id)!;
      expect({ domainId: row.domainId, type: row.type, ...contentOf(row as unknown as Content), createdAt: row.createdAt }).toStrictEqual({
        domainId: old.domain_id,
        type: old.type,
        ...contentOf(old),
        createdAt: old.created_at,
      });
    }
  });

  it('stores each snapshot change once, ignoring its takenAt', async () => {
    const generated = history.domainScans.reduce(
      (n, scans) =>
        n +
        countChanges(
          scans.flatMap((s) => {
            if (!s.snapshot) return [];
            const { takenAt: _takenAt, ...rest } = s.snapshot;
            return [rest];
          }),
        ),
      0,
    );
    const stored = await db!.selectFrom('dnsSnapshots').select(['id', 'domainId', 'snapshot']).execute();
    expect(stored).toHaveLength(generated);
    // Far fewer than scans: most scans saw the snapshot before them.
    expect(stored.length).toBeLessThan(before.scans.length / 5);
  });

  it('points every alert at the stored result of its check, and at that check’s scan', async () => {
    const alerts = await db!.selectFrom('domainAlerts').select(['id', 'checkId', 'scanId', 'domainId', 'type']).orderBy('id').execute();
    expect(alerts.map((a) => ({ id: a.id, domainId: a.domainId, type: a.type }))).toEqual(before.alerts.map((a) => ({ id: a.id, domainId: a.domain_id, type: a.type })));
    const oldById = new Map(before.checks.map((c) => [c.id, c]));
    const storedById = new Map((await db!.selectFrom('checkResults').selectAll().execute()).map((r) => [r.id, r]));
    let namesRepeated = 0;
    for (const [i, alert] of alerts.entries()) {
      const oldCheckId = before.alerts[i]!.check_id;
      if (oldCheckId === null) {
        expect(alert).toMatchObject({ checkId: null, scanId: null });
        continue;
      }
      const old = oldById.get(oldCheckId)!;
      if (before.leaders.get(old.id) !== old.id) namesRepeated += 1;
      expect(alert.checkId).toBe(before.leaders.get(old.id));
      const stored = storedById.get(alert.checkId!)!;
      expect({ domainId: stored.domainId, type: stored.type, ...contentOf(stored as unknown as Content) }).toStrictEqual({ domainId: old.domain_id, type: old.type, ...contentOf(old) });
      expect(alert.scanId).toBe(old.scan_id);
    }
    expect(namesRepeated).toBeGreaterThanOrEqual(2);
  });

  it('drops the old layout, and gives new results ids above every old one', async () => {
    const left = await sql<{ n: number }>`select
        (select count(*)::int from information_schema.tables where table_schema = 'public' and table_name = 'domain_checks')
      + (select count(*)::int from information_schema.columns where table_schema = 'public' and table_name = 'scans' and column_name = 'dns_snapshot') as n`.execute(db!);
    expect(left.rows[0]!.n).toBe(0);
    const domainId = before.scans[0]!.domain_id;
    const inserted = await db!
      .insertInto('checkResults')
      .values({ domainId, type: 'spf', status: 'valid', details: JSON.stringify({}) })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(inserted.id).toBeGreaterThan(before.maxCheckId);
    const maxSnapshot = await db!.selectFrom('dnsSnapshots').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    const snapshot = await db!
      .insertInto('dnsSnapshots')
      .values({ domainId, snapshot: JSON.stringify({ a: [] }) })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(snapshot.id).toBeGreaterThan(Number(maxSnapshot.id));
  });
});
