import { randomBytes } from 'node:crypto';
import { checkTypes, type CheckStatus, type CheckType, type ScanTrigger } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import type { CheckResult } from '../../src/checks/types.js';
import type { DnsSnapshot } from '@sendwell/contracts';
import { overallStatus } from '../../src/scan/domain-status.js';
import type { ScanOutcome } from '../../src/scan/run-scan.js';
import { computeReputation, type ScanChecks } from '../../src/scoring/reputation.js';

/** Rows for the scanner's medium tests, written with plain inserts (the scanner owns no user or domain writes). */
export function factory(db: Database) {
  return {
    async user(plan = 'standard') {
      const tag = randomBytes(5).toString('hex');
      const row = await db
        .insertInto('users')
        .values({ username: `u${tag}`, email: `u${tag}@example.test`, passwordHash: 'x', planType: plan })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async domain(opts: { userId?: number; plan?: string; name?: string; nextScanAt?: Date | null; metadata?: Record<string, unknown>; deleted?: boolean } = {}) {
      const userId = opts.userId ?? (await this.user(opts.plan));
      const row = await db
        .insertInto('domains')
        .values({
          userId,
          name: opts.name ?? `d${randomBytes(5).toString('hex')}.example`,
          nextScanAt: opts.nextScanAt ?? null,
          metadata: JSON.stringify(opts.metadata ?? {}),
          isDeleted: opts.deleted ?? false,
          deletedAt: opts.deleted ? new Date() : null,
        })
        .returning(['id', 'name', 'userId'])
        .executeTakeFirstOrThrow();
      return row;
    },
    async scan(domainId: number, trigger: ScanTrigger = 'manual') {
      const row = await db.insertInto('scans').values({ domainId, trigger }).returning(['id']).executeTakeFirstOrThrow();
      return row.id;
    },
    async counts(domainId: number) {
      const [checks, reputation, alerts, domain] = await Promise.all([
        // The checks the domain's scans recorded (each references its results, stored once while unchanged).
        db.selectFrom('scans').select(sql<number>`coalesce(sum(cardinality(check_result_ids)), 0)::int`.as('n')).where('domainId', '=', domainId).executeTakeFirstOrThrow(),
        db.selectFrom('domainReputationHistory').select(sql<number>`count(*)::int`.as('n')).where('domainId', '=', domainId).executeTakeFirstOrThrow(),
        db.selectFrom('domainAlerts').select(sql<number>`count(*)::int`.as('n')).where('domainId', '=', domainId).executeTakeFirstOrThrow(),
        db.selectFrom('domains').select(['scanCount', 'status', 'lastScan', 'nextScanAt']).where('id', '=', domainId).executeTakeFirstOrThrow(),
      ]);
      return { checks: checks.n, reputation: reputation.n, alerts: alerts.n, ...domain };
    },
  };
}

/** A stored check row as a scan hands it to the recorder: test data for the persistence tests, not a check. */
export function checkRow(type: CheckType, status: CheckStatus, details: Record<string, unknown> = {}): CheckResult {
  return { type, status, value: null, message: `${type} ${status}`, recommendation: null, details: { findings: [], ...details } };
}

export function snapshotData(overrides: Partial<DnsSnapshot> = {}): DnsSnapshot {
  return {
    takenAt: new Date().toISOString(),
    a: ['192.0.2.1'],
    aaaa: [],
    mx: [{ exchange: 'mx.example.test', priority: 10, ips: ['192.0.2.25'] }],
    ns: ['ns1.example.test', 'ns2.example.test'],
    txt: ['v=spf1 mx -all'],
    spfRecord: 'v=spf1 mx -all',
    dmarcRecord: 'v=DMARC1; p=reject',
    failed: [],
    ...overrides,
  };
}

/** A scan outcome built from given check rows, with the real status rule and score. */
export function outcomeData(overrides: Partial<Record<CheckType, CheckResult>> = {}, snapshot: DnsSnapshot = snapshotData()): ScanOutcome {
  const checks = Object.fromEntries(checkTypes.map((t) => [t, checkRow(t, t === 'dns_performance' ? 'success' : 'valid')])) as ScanChecks;
  checks.dmarc = checkRow('dmarc', 'valid', { policy: 'reject', pct: 100 });
  Object.assign(checks, overrides);
  return { profile: snapshot.profile ?? 'mail', checks, snapshot, status: overallStatus(checks), score: computeReputation(checks, snapshot), dnsQueries: 0, durationMs: 1 };
}
