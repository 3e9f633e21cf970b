import { randomBytes } from 'node:crypto';
import { checkTypes, type CheckStatus, type CheckType } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { ResultStore, ScanDayRows } from '@sendwell/scan-engine';

const tag = () => randomBytes(5).toString('hex');

/**
 * Rows other services own (users and sessions by auth, domains by domains, scans, checks and
 * reputation by the scanner), inserted in the shapes those services write; the reports service
 * only reads them.
 */
export function factory(db: Database) {
  return {
    async user(plan = 'standard') {
      const t = tag();
      return db
        .insertInto('users')
        .values({ username: `u${t}`, email: `u${t}@example.test`, passwordHash: 'x', planType: plan })
        .returning(['id', 'email', 'planType'])
        .executeTakeFirstOrThrow();
    },

    async session(userId: number): Promise<string> {
      const row = await db.insertInto('sessions').values({ userId, expires: new Date(Date.now() + 3_600_000) }).returning(['id']).executeTakeFirstOrThrow();
      return row.id;
    },

    async domain(userId: number, opts: { name?: string; deleted?: boolean; status?: string } = {}) {
      return db
        .insertInto('domains')
        .values({
          userId,
          name: opts.name ?? `d${tag()}.example`,
          status: opts.status ?? 'warning',
          isDeleted: opts.deleted ?? false,
          deletedAt: opts.deleted ? new Date() : null,
        })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },

    /**
     * A completed scan as the scanner's recorder leaves it: checks with details and findings, the scan
     * row with its DNS snapshot, a reputation row with the scanner's factors, and the scan counted in
     * its day's summary.
     */
    async completedScan(
      domainId: number,
      opts: { at?: Date; statuses?: Partial<Record<CheckType, CheckStatus>>; score?: number; spfRecord?: string; listedOn?: string } = {},
    ) {
      const at = opts.at ?? new Date();
      const scan = await db
        .insertInto('scans')
        .values({
          domainId,
          trigger: 'scheduled',
          status: 'completed',
          overallStatus: 'warning',
          createdAt: at,
          startedAt: at,
          completedAt: at,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const status = (type: CheckType): CheckStatus => opts.statuses?.[type] ?? (type === 'dns_performance' || type === 'blacklist' ? 'success' : 'valid');
      const details: Record<CheckType, object> = {
        spf: {
          record: opts.spfRecord ?? 'v=spf1 include:_spf.example.net ~all',
          lookupCount: 3,
          findings:
            status('spf') === 'valid'
              ? []
              : [{ code: 'SPF_TOO_MANY_LOOKUPS', severity: 'error', message: 'The record needs 12 DNS lookups.', rfc: 'RFC 7208 §4.6.4', recommendation: 'Remove includes you no longer use.' }],
        },
        dkim: { records: [{ selector: 's1', record: 'v=DKIM1; k=rsa; p=MIIB' }], selectorsChecked: ['s1', 'google'] },
        dmarc: {
          record: 'v=DMARC1; p=none',
          policy: 'none',
          findings: [{ code: 'DMARC_POLICY_NONE', severity: 'warning', message: 'p=none asks receivers to deliver failing mail.', rfc: 'RFC 7489 §6.3', recommendation: 'Publish p=quarantine.' }],
        },
        blacklist: {
          sites: [
            { name: 'Spamhaus ZEN', status: opts.listedOn === 'Spamhaus ZEN' ? 'listed' : 'clean', removalUrl: 'https://check.spamhaus.org/' },
            { name: 'Barracuda', status: 'clean', removalUrl: null },
          ],
          allIpResults: [{ ip: '192.0.2.25', clean: !opts.listedOn, source: 'MX', listedServices: opts.listedOn ? [{ service: opts.listedOn, removalUrl: 'https://check.spamhaus.org/' }] : [] }],
        },
        ssl_certificate: { issuer: 'Test CA', expiresAt: new Date(at.getTime() + 60 * 86_400_000).toISOString(), daysRemaining: 60 },
        dns_performance: { responseTimeMs: 42 },
        mta_sts: { record: 'v=STSv1; id=20261101', id: '20261101', policy: { version: 'STSv1', mode: 'enforce', maxAge: 604800, mx: ['mx1.example.net'] } },
        tls_rpt: { record: 'v=TLSRPTv1; rua=mailto:tls@example.net', rua: ['mailto:tls@example.net'] },
        smtp: { hosts: [{ exchange: 'mx1.example.net', ip: '192.0.2.25', starttls: true, tlsVersion: 'TLSv1.3' }] },
        dane: { hosts: [{ exchange: 'mx1.example.net', ip: '192.0.2.25', tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], matched: true, matchedRecord: '3 1 1' }] },
        bimi: { record: 'v=BIMI1; l=https://example.net/logo.svg; a=https://example.net/vmc.pem', certificate: { present: true, markType: 'VMC', issuer: 'Test Mark CA' } },
        dnssec: { chain: [{ zone: '.', validated: true }, { zone: 'net.', validated: true }, { zone: 'example.net.', validated: true }] },
        reverse_dns: { addresses: [{ ip: '192.0.2.25', source: 'MX mx1.example.net', ptr: ['mx1.example.net'], forwardConfirmed: true }] },
      };
      await new ResultStore(db).store({
        scanId: scan.id,
        domainId,
        checks: checkTypes.map((type) => ({ type, status: status(type), value: null, message: `${type} checked`, recommendation: null, details: details[type] })),
        snapshot: {
          takenAt: at.toISOString(),
          a: ['192.0.2.10'],
          aaaa: [],
          mx: [{ exchange: 'mx1.example.net', priority: 10, ips: ['192.0.2.25'] }],
          ns: ['ns1.example.net', 'ns2.example.net'],
          txt: [],
          spfRecord: opts.spfRecord ?? 'v=spf1 include:_spf.example.net ~all',
          dmarcRecord: 'v=DMARC1; p=none',
          failed: [],
        },
        at,
        previous: null,
      });
      await db
        .insertInto('domainReputationHistory')
        .values({
          domainId,
          scanId: scan.id,
          score: opts.score ?? 72,
          trend: 'stable',
          previousScore: null,
          calculatedAt: at,
          factors: JSON.stringify({
            weightedScores: { emailAuthentication: 30.5, securityDeliverability: 25, configurationHealth: 16.5 },
            emailAuthentication: { spf: 13, dkim: 13, dmarc: 4.5 },
            securityDeliverability: {
              blacklist: { score: opts.listedOn ? 6 : 10, status: opts.listedOn ? 'listed' : 'clean', listings: 0 },
              ssl: 10,
              spoofingProtection: 3.5,
              smtp: 3,
              mtaSts: 2,
              tlsRpt: 1,
              dane: 1,
              bimi: 1,
            },
            configurationHealth: { dnsPerformance: 10, mailRouting: 6, nameServers: 3, reverseDns: 4, dnssec: 2 },
          }),
        })
        .execute();
      await new ScanDayRows(db).countScan({
        domainId,
        scanId: scan.id,
        createdAt: at,
        overallStatus: 'warning',
        checks: checkTypes.map((type) => ({ type, status: status(type) })),
        score: opts.score ?? 72,
      });
      await db.updateTable('domains').set((eb) => ({ lastScan: at, scanCount: eb('scanCount', '+', 1) })).where('id', '=', domainId).execute();
      return scan.id;
    },

    async dnsChangeAlert(userId: number, domainId: number, at: Date, summary: string) {
      await db
        .insertInto('domainAlerts')
        .values({
          userId,
          domainId,
          type: 'dns_change',
          severity: 'high',
          title: summary,
          message: summary,
          details: JSON.stringify({ changes: [{ record: 'DMARC', impact: 'weakens', summary }] }),
          createdAt: at,
          notifiedAt: at,
        })
        .execute();
    },

    async reportEmails(userId: number, on: boolean) {
      await db
        .insertInto('notificationPreferences')
        .values({ userId, reportEmails: on })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ reportEmails: on }))
        .execute();
    },

    /** The month's partitions of mail flow's daily tables, as the intake's ensureMonthPartitions creates them ahead of need. */
    async mailFlowPartition(month: string) {
      const [y, m] = month.split('-').map(Number) as [number, number];
      const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
      const suffix = `${y}_${String(m).padStart(2, '0')}`;
      for (const [table, from, to] of [
        ['dmarc_records_daily', `${month}-01`, `${next}-01`],
        ['tls_results_daily', `${month}-01`, `${next}-01`],
        ['dmarc_failure_reports', `${month}-01 00:00:00+00`, `${next}-01 00:00:00+00`],
      ] as const) {
        await sql.raw(`create table if not exists ${table}_${suffix} partition of ${table} for values from ('${from}') to ('${to}')`).execute(db);
      }
    },

    /** Aggregate records summed per day as the intake's ingest stores them (the dimensions' hash is the key). */
    async dmarcRecord(
      domainId: number,
      r: { day: string; ip: string; messages: number; spfAligned?: boolean; dkimAligned?: boolean; override?: string; selector?: string },
    ) {
      const spfAligned = r.spfAligned ?? false;
      const dkimAligned = r.dkimAligned ?? false;
      await db
        .insertInto('dmarcRecordsDaily')
        .values({
          day: r.day,
          domainId,
          key: randomBytes(20),
          sourceIp: r.ip,
          headerFrom: 'example.test',
          envelopeFrom: 'example.test',
          spfDomain: 'example.test',
          spfResult: spfAligned ? 'pass' : 'fail',
          dkimDomain: dkimAligned ? 'example.test' : '',
          dkimSelector: r.selector ?? '',
          dkimResult: dkimAligned ? 'pass' : 'none',
          spfAligned,
          dkimAligned,
          disposition: spfAligned || dkimAligned ? 'none' : 'quarantine',
          override: r.override ?? '',
          messages: r.messages,
        })
        .execute();
    },

    /** A source address as the intake's namer leaves it. */
    async mailSource(ip: string, host: string | null, serviceId: string | null) {
      await db.insertInto('mailSources').values({ ip, host, serviceId, namedAt: new Date() }).execute();
    },

    async mailReport(domainId: number, r: { kind: 'aggregate' | 'tls'; org: string; begin: string; end: string; policy?: object; messages?: number }) {
      await db
        .insertInto('mailReports')
        .values({
          domainId,
          kind: r.kind,
          orgName: r.org,
          reportId: `r-${tag()}`,
          periodBegin: new Date(r.begin),
          periodEnd: new Date(r.end),
          policy: JSON.stringify(r.policy ?? {}),
          records: 1,
          messages: r.messages ?? 0,
          channel: 'smtp',
        })
        .execute();
    },

    async tlsResult(domainId: number, r: { day: string; resultType: string; sessions: number; mxHost?: string }) {
      await db
        .insertInto('tlsResultsDaily')
        .values({ day: r.day, domainId, policyType: 'sts', policyDomain: 'example.test', mxHost: r.mxHost ?? 'mx1.example.test', resultType: r.resultType, sessions: r.sessions })
        .execute();
    },

    /** Stored reports without documents, to fill a quota. */
    async fillReports(userId: number, domainId: number, count: number) {
      await sql`insert into reports (user_id, domain_id, type, status, data)
        select ${userId}, ${domainId}, 'full', 'completed', ${JSON.stringify({ domainName: 'x.example', summary: 'old' })}::jsonb
        from generate_series(1, ${count})`.execute(db);
    },
  };
}

export type Factory = ReturnType<typeof factory>;
