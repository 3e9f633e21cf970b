import { randomBytes } from 'node:crypto';
import { checkTypes, type CheckStatus, type CheckType, type DnsSnapshot, type ScanTrigger } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { createScan, ResultStore, ScanDayRows, ScanResults } from '@sendwell/scan-engine';
import { DomainRepository } from '../src/domains/domain.repository.js';

/** A snapshot that read nothing, the base a test's records go over. */
const emptySnapshot = (at: Date): DnsSnapshot => ({ takenAt: at.toISOString(), a: [], aaaa: [], mx: [], ns: [], txt: [], spfRecord: null, dmarcRecord: null, failed: [] });

export type Factory = ReturnType<typeof factory>;

const tag = () => randomBytes(5).toString('hex');

/**
 * Rows for the medium tests. Domains and scans go through this service's repositories; users and
 * sessions (owned by auth) and finished scans (written by the scanner) are plain inserts of the
 * shapes those services write; the end-to-end tests use the real scanner instead.
 */
export function factory(db: Database) {
  return {
    async user(plan = 'standard') {
      const t = tag();
      return db
        .insertInto('users')
        .values({ username: `u${t}`, email: `u${t}@example.test`, passwordHash: 'x', planType: plan })
        .returning(['id', 'planType'])
        .executeTakeFirstOrThrow();
    },

    async session(userId: number, opts: { expires?: Date; revokedAt?: Date } = {}): Promise<string> {
      const row = await db
        .insertInto('sessions')
        .values({ userId, expires: opts.expires ?? new Date(Date.now() + 3_600_000), revokedAt: opts.revokedAt ?? null })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** A password-reset row as auth stores it (only the token's hash). */
    async resetToken(userId: number, opts: { expiresAt?: Date; usedAt?: Date } = {}): Promise<number> {
      const row = await db
        .insertInto('passwordResetTokens')
        .values({ userId, tokenHash: tag(), expiresAt: opts.expiresAt ?? new Date(Date.now() + 3_600_000), usedAt: opts.usedAt ?? null })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** A quick-check domain last viewed `viewedDaysAgo` days ago, with one check row as a scan leaves it. */
    async sampleDomain(opts: { viewedDaysAgo: number; name?: string }) {
      const row = await db
        .insertInto('sampleDomains')
        .values({ name: opts.name ?? `s${tag()}.example`, lastViewedAt: sql<Date>`now() - make_interval(days => ${opts.viewedDaysAgo})` })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
      await db.insertInto('sampleDomainChecks').values({ sampleDomainId: row.id, type: 'spf', status: 'valid', message: 'spf checked' }).execute();
      return row;
    },

    async domain(opts: { userId: number; name?: string; nextScanAt?: Date | null; deletedDaysAgo?: number; createdAt?: Date }) {
      const repo = new DomainRepository(db);
      let row = await repo.insert({ userId: opts.userId, name: opts.name ?? `d${tag()}.example` });
      if (opts.nextScanAt) row = await db.updateTable('domains').set({ nextScanAt: opts.nextScanAt }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
      if (opts.createdAt) await db.updateTable('domains').set({ createdAt: opts.createdAt }).where('id', '=', row.id).execute();
      if (opts.deletedDaysAgo !== undefined) {
        row = (await repo.softDelete(opts.userId, row.id))!;
        await db
          .updateTable('domains')
          .set({ deletedAt: sql<Date>`now() - make_interval(days => ${opts.deletedDaysAgo})` })
          .where('id', '=', row.id)
          .execute();
      }
      return row;
    },

    /** A queued scan row, as this service creates it before queueing the job. */
    scan(domainId: number, trigger: ScanTrigger = 'manual'): Promise<string> {
      return createScan(db, domainId, trigger);
    },

    /**
     * A completed scan with one check per type, the way the scanner's recorder leaves it: checks,
     * the scan row with its DNS snapshot, the domain's status and counters.
     */
    async completedScan(
      domainId: number,
      opts: { statuses?: Partial<Record<CheckType, CheckStatus>>; at?: Date; snapshot?: Partial<DnsSnapshot>; spfIps?: string[]; overallStatus?: string } = {},
    ) {
      const at = opts.at ?? new Date();
      const overallStatus = opts.overallStatus ?? 'healthy';
      const scanId = await createScan(db, domainId, 'scheduled');
      const checks = checkTypes.map((type) => ({
        type,
        status: opts.statuses?.[type] ?? (type === 'dns_performance' ? 'success' : 'valid'),
        value: null,
        message: `${type} checked`,
        recommendation: null,
        details: type === 'spf' ? { record: 'v=spf1 -all', flattenedIps: (opts.spfIps ?? []).map((ip) => ({ ip })) } : {},
      }));
      await new ResultStore(db).store({ scanId, domainId, checks, snapshot: opts.snapshot ? { ...emptySnapshot(at), ...opts.snapshot } : null, at, previous: null });
      await db
        .updateTable('scans')
        .set({ status: 'completed', overallStatus, createdAt: at, startedAt: at, completedAt: at })
        .where('id', '=', scanId)
        .execute();
      await new ScanDayRows(db).countScan({ domainId, scanId, createdAt: at, overallStatus, checks, score: null });
      await db
        .updateTable('domains')
        .set((eb) => ({ status: 'healthy', lastScan: at, scanCount: eb('scanCount', '+', 1) }))
        .where('id', '=', domainId)
        .execute();
      return scanId;
    },

    /**
     * Copies of a completed scan (same checks and snapshot) at each of these times, in one statement:
     * a long history without storing its checks again. Times are ISO strings, so a test can give
     * microseconds (Postgres keeps them; a JS Date does not). Answers the new scans' ids in order.
     */
    async scanCopies(templateScanId: string, times: ReadonlyArray<Date | string>): Promise<string[]> {
      const at = times.map((t) => (typeof t === 'string' ? t : t.toISOString()));
      const rows = await sql<{ id: string }>`
        insert into scans (domain_id, trigger, status, overall_status, created_at, started_at, completed_at, check_result_ids, dns_snapshot_id)
        select s.domain_id, s.trigger, s.status, s.overall_status, t.at, t.at, t.at, s.check_result_ids, s.dns_snapshot_id
        from scans s cross join unnest(${at}::timestamptz[]) with ordinality as t(at, n)
        where s.id = ${templateScanId}
        order by t.n
        returning id`.execute(db);
      return rows.rows.map((r) => r.id);
    },

    /** A daily reputation point (`daily_for`), as the daily recalculation writes it for the scan it scored. */
    async dailyReputation(domainId: number, score: number, opts: { at: Date; scanId: string }) {
      await db
        .insertInto('domainReputationHistory')
        .values({ domainId, score, trend: 'stable', calculatedAt: opts.at, scanId: opts.scanId, dailyFor: sql<Date>`${opts.at.toISOString().slice(0, 10)}::date`, factors: JSON.stringify({}) })
        .execute();
    },

    async reputation(domainId: number, score: number, opts: { trend?: string; previousScore?: number | null; at?: Date; scanId?: string } = {}) {
      await db
        .insertInto('domainReputationHistory')
        .values({
          domainId,
          score,
          trend: opts.trend ?? 'stable',
          previousScore: opts.previousScore ?? null,
          calculatedAt: opts.at ?? new Date(),
          scanId: opts.scanId ?? null,
          factors: JSON.stringify({
            weightedScores: { emailAuthentication: 30, securityDeliverability: 30, configurationHealth: 20 },
            securityDeliverability: { blacklist: { score: 10, status: 'clean' } },
          }),
        })
        .execute();
      // The day's summary takes it as the engine does a scan's score (the day's last score).
      await new ScanDayRows(db).setScore(domainId, opts.at ?? new Date(), score);
    },

    /**
     * An alert row as the scanner writes it (the scanner's rules raise them from real scans; the
     * notify tests start from the row). `createdAt` in the past makes it one the sweep would pick up.
     */
    async alert(opts: {
      userId: number;
      domainId: number;
      type?: string;
      severity?: string;
      createdAt?: Date;
      resolvedAt?: Date | null;
      /** The scan whose check raised it (its dns_performance check, as the scanner links dns_change). */
      scanId?: string;
      details?: Record<string, unknown>;
    }) {
      const [check] = opts.scanId ? await new ScanResults(db).checksOfScan(opts.scanId, ['dns_performance']) : [];
      return db
        .insertInto('domainAlerts')
        .values({
          userId: opts.userId,
          domainId: opts.domainId,
          type: opts.type ?? 'blacklist_listed',
          severity: opts.severity ?? 'high',
          title: `Alert ${tag()}`,
          message: 'Something changed.',
          details: JSON.stringify(opts.details ?? {}),
          checkId: check?.id ?? null,
          scanId: opts.scanId ?? null,
          createdAt: opts.createdAt ?? new Date(),
          resolvedAt: opts.resolvedAt ?? null,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
    },
  };
}
