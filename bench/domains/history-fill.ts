/**
 * Data setup of the domains benchmark (not a test): scan history written straight into the tables
 * the scanner writes (`scans` with the results they saw stored on change in `check_results` and
 * `dns_snapshots`, `domain_reputation_history`, the domain's status and counters), in a few
 * set-based statements: each domain's checks repeat scan after scan, so each distinct result is
 * stored once and every scan references it (lib/seeded-results.ts), as the recorder leaves them. The check details copy the shape of the scanner's
 * output (`services/scanner/src/checks/*.ts`) at a realistic size, so the checks call serialises
 * what production would: the blacklist check's per-list sites and per-IP results are the bulk.
 */
import { sql, type Database } from '@sendwell/db';
import { summariseScanDays } from '@sendwell/testing';
import { storedMonthOf, storeSeededChecks, storeSeededSnapshots } from '../lib/seeded-results.js';

const LISTS = [
  ['Spamhaus ZEN', 'zen.spamhaus.org'],
  ['Barracuda', 'b.barracudacentral.org'],
  ['SpamCop', 'bl.spamcop.net'],
  ['SORBS', 'dnsbl.sorbs.net'],
  ['UCEPROTECT L1', 'dnsbl-1.uceprotect.net'],
  ['PSBL', 'psbl.surriel.com'],
  ['Mailspike', 'bl.mailspike.net'],
  ['SpamRATS', 'all.spamrats.com'],
  ['DroneBL', 'dnsbl.dronebl.org'],
  ['Spamhaus DBL', 'dbl.spamhaus.org'],
  ['SURBL', 'multi.surbl.org'],
  ['URIBL', 'multi.uribl.com'],
] as const;

/** `{domain}` is replaced per domain in SQL, so each domain's rows name it. */
export function checkTemplates(): Array<{ type: string; status: string; value: string; message: string; recommendation: string | null; details: unknown }> {
  const ips = ['192.0.2.10', '192.0.2.11', '198.51.100.25', '203.0.113.7'];
  const finding = (code: string, severity: 'error' | 'warning' | 'info', message: string, rfc: string, recommendation: string) => ({ code, severity, message, rfc, recommendation });
  return [
    {
      type: 'spf',
      status: 'valid',
      value: 'v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all',
      message: 'SPF record is valid with 4 of 10 DNS lookups.',
      recommendation: null,
      details: {
        issue: null,
        record: 'v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all',
        records: ['v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all'],
        lookupCount: 4,
        lookupLimit: 10,
        voidLookupCount: 0,
        voidLookupLimit: 2,
        voidLookups: [],
        includeTree: {
          domain: '{domain}',
          record: 'v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all',
          lookups: 2,
          children: [
            { domain: '_spf.google.com', record: 'v=spf1 include:_netblocks.google.com include:_netblocks2.google.com ~all', lookups: 2, children: [] },
            { domain: 'mailgun.org', record: 'v=spf1 include:_spf.mailgun.org ~all', lookups: 1, children: [] },
          ],
        },
        flattenedIps: [
          { ip: '192.0.2.0/24', source: '{domain}' },
          { ip: '35.190.247.0/24', source: '_netblocks.google.com' },
          { ip: '64.233.160.0/19', source: '_netblocks.google.com' },
          { ip: '66.102.0.0/20', source: '_netblocks.google.com' },
          { ip: '209.61.151.0/24', source: '_spf.mailgun.org' },
          { ip: '166.78.68.0/22', source: '_spf.mailgun.org' },
        ],
        allQualifier: '-',
        recordLength: 74,
        findings: [],
      },
    },
    {
      type: 'dkim',
      status: 'valid',
      value: 'google, s1',
      message: 'DKIM keys found for 2 selectors.',
      recommendation: null,
      details: {
        records: [
          { selector: 'google', record: `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.padEnd(392, 'x')}`, keyType: 'rsa', keyBits: 2048, source: 'common' },
          { selector: 's1', record: `v=DKIM1; k=rsa; p=${'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'.padEnd(392, 'y')}`, keyType: 'rsa', keyBits: 2048, source: 'common' },
        ],
        selectorsChecked: ['google', 'default', 'selector1', 'selector2', 'k1', 's1', 's2', 'mail', 'dkim', 'smtp', 'mandrill', 'mxvault'],
        selectorsFailed: [],
        findings: [],
      },
    },
    {
      type: 'dmarc',
      status: 'warning',
      value: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}',
      message: 'DMARC is published with p=none: failing mail is only reported.',
      recommendation: 'Move to p=quarantine, then p=reject, once reports show your mail passes.',
      details: {
        policy: 'none',
        subdomainPolicy: 'none',
        effectivePolicy: 'none',
        pct: 100,
        record: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}',
        records: ['v=DMARC1; p=none; rua=mailto:dmarc@{domain}'],
        orgDomain: '{domain}',
        source: 'domain',
        policyDomain: '{domain}',
        rua: ['mailto:dmarc@{domain}'],
        ruf: [],
        adkim: 'r',
        aspf: 'r',
        findings: [finding('DMARC_POLICY_NONE', 'warning', 'The policy is p=none: receivers take no action on failing mail.', 'RFC 7489 §6.3', 'Move to p=quarantine, then p=reject.')],
      },
    },
    {
      type: 'blacklist',
      status: 'valid',
      value: `Clean on ${LISTS.length} of ${LISTS.length} lists`,
      message: `Not listed on any of the ${LISTS.length} block lists checked.`,
      recommendation: null,
      details: {
        sites: LISTS.map(([name, zone]) => ({
          name,
          zone,
          status: 'clean',
          url: `https://${zone.split('.').slice(-2).join('.')}`,
          lookupUrl: `https://${zone.split('.').slice(-2).join('.')}/lookup`,
          removalUrl: `https://${zone.split('.').slice(-2).join('.')}/removal`,
          description: `${name} block list`,
        })),
        totalIpsChecked: ips.length,
        cleanIps: ips.length,
        listedIpsCount: 0,
        allIpResults: ips.map((ip) => ({ ip, clean: true, description: null, source: 'mx', listedServices: [] })),
        domainListings: [],
        mxHosts: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
        nullMx: false,
        listsChecked: LISTS.length,
        queriesSent: LISTS.length * ips.length,
        error: null,
        recommendation: null,
        findings: [],
      },
    },
    {
      type: 'ssl_certificate',
      status: 'valid',
      value: 'Valid for 63 days',
      message: 'The certificate of {domain} is valid and trusted.',
      recommendation: null,
      details: {
        issuer: "Let's Encrypt R11",
        subject: '{domain}',
        altNames: ['{domain}', 'www.{domain}'],
        validFrom: '2026-10-24T00:00:00.000Z',
        expiresAt: '2027-01-22T23:59:59.000Z',
        daysRemaining: 63,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        host: '{domain}',
        port: 443,
        findings: [],
      },
    },
    {
      type: 'dns_performance',
      status: 'success',
      value: 'Excellent (38 ms)',
      message: 'All 4 name servers answered; the slowest took 38 ms.',
      recommendation: null,
      details: {
        aRecords: ['192.0.2.10'],
        mxRecords: [
          { exchange: 'aspmx.l.google.com', priority: 1, ips: ['192.0.2.11'] },
          { exchange: 'alt1.aspmx.l.google.com', priority: 5, ips: ['198.51.100.25'] },
        ],
        spfRecord: 'v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all',
        spfIps: ['192.0.2.0/24'],
        dmarcRecord: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}',
        nameservers: ['ns1', 'ns2', 'ns3', 'ns4'].map((ns, i) => ({ name: `${ns}.dns-host.example`, responseTimeMs: 12 + i * 8, lame: false, soaSerial: 2026112101, addresses: [`203.0.113.${i + 1}`] })),
        averageResponseTimeMs: 24,
        responseTimeMs: 38,
        soaSerials: [2026112101],
        thresholdsMs: { excellent: 100, fair: 300 },
        findings: [],
      },
    },
  ];
}

export const SNAPSHOT = {
  a: ['192.0.2.10'],
  mx: [{ exchange: 'aspmx.l.google.com', priority: 1 }, { exchange: 'alt1.aspmx.l.google.com', priority: 5 }],
  ns: ['ns1.dns-host.example', 'ns2.dns-host.example', 'ns3.dns-host.example', 'ns4.dns-host.example'],
  spf: 'v=spf1 include:_spf.google.com include:mailgun.org ip4:192.0.2.0/24 -all',
  dmarc: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}',
};

export const FACTORS = {
  weightedScores: { emailAuthentication: 33.8, securityDeliverability: 30, configurationHealth: 20 },
  emailAuthentication: { spf: 12.5, dkim: 12.5, dmarc: 8.8, dmarcPolicy: 'none', dmarcPct: 100 },
  securityDeliverability: { blacklist: { score: 15, status: 'clean', listings: 0 }, ssl: 10, spoofingProtection: 5 },
  configurationHealth: { dnsPerformance: 10, mailRouting: 5, nameServers: 5, nameServerCount: 4 },
};

/**
 * `scans` completed scans spread round-robin over `domainIds`, one every `spacingSeconds` seconds back
 * from `end` (now by default), each with its six checks and its reputation row, kept in the month
 * partition `storedMonth` (by default the current one); then the domains' status, counters and daily
 * summary as the scanner's recorder leaves them.
 */
export async function fillHistory(db: Database, domainIds: number[], scans: number, spacingSeconds: number, options: { end?: Date; storedMonth?: string } = {}): Promise<void> {
  const templates = checkTemplates();
  const end = options.end ?? new Date();
  const month = storedMonthOf(options.storedMonth);
  await db.transaction().execute(async (trx) => {
    await sql`
      create temp table bench_new_scans on commit drop as
      with ids as (select unnest(${domainIds}::int[]) as domain_id, generate_subscripts(${domainIds}::int[], 1) as k),
      made as (
        insert into scans (domain_id, trigger, status, overall_status, created_at, started_at, completed_at, stored_month)
        select ids.domain_id, case when g % 20 = 0 then 'manual' else 'scheduled' end, 'completed',
               case when g % 7 = 0 then 'warning' else 'healthy' end,
               ${end}::timestamptz - g * make_interval(secs => ${spacingSeconds}),
               ${end}::timestamptz - g * make_interval(secs => ${spacingSeconds}) + interval '1 second',
               ${end}::timestamptz - g * make_interval(secs => ${spacingSeconds}) + interval '4 seconds',
               ${month}
        from generate_series(1, ${scans}) g
        join ids on ids.k = 1 + g % ${domainIds.length}
        returning id, domain_id, created_at, completed_at
      )
      select * from made
    `.execute(trx);
    // Each scan's snapshot and checks as the scanner would report them; stored on change below.
    await sql`
      create temp table bench_new_snapshots on commit drop as
      select s.id as scan_id, s.domain_id, replace(${JSON.stringify(SNAPSHOT)}, '{domain}', d.name)::jsonb as snapshot, s.completed_at as at
      from bench_new_scans s
      join domains d on d.id = s.domain_id
    `.execute(trx);
    await storeSeededSnapshots(trx, 'bench_new_snapshots', options.storedMonth);
    await sql`
      create temp table bench_new_checks on commit drop as
      select s.id as scan_id, s.domain_id, t.ord::int as ord, t.type,
             case when t.type = 'dmarc' or (t.type = 'spf' and extract(minute from s.created_at)::int % 9 = 0) then 'warning' else t.status end as status,
             replace(t.value, '{domain}', d.name) as value, replace(t.message, '{domain}', d.name) as message, t.recommendation,
             replace(t.details::text, '{domain}', d.name)::jsonb as details, s.completed_at as at
      from bench_new_scans s
      join domains d on d.id = s.domain_id
      cross join rows from (jsonb_to_recordset(${JSON.stringify(templates)}::jsonb)
        as (type text, status text, value text, message text, recommendation text, details jsonb)) with ordinality
        as t(type, status, value, message, recommendation, details, ord)
    `.execute(trx);
    await storeSeededChecks(trx, 'bench_new_checks', options.storedMonth);
    await sql`
      insert into domain_reputation_history (domain_id, scan_id, score, factors, trend, previous_score, calculated_at, stored_month)
      select s.domain_id, s.id, 80 + (extract(epoch from s.created_at)::bigint % 12)::int, ${JSON.stringify(FACTORS)}::jsonb,
             (array['stable', 'improving', 'declining'])[1 + (extract(epoch from s.created_at)::bigint % 3)::int],
             80 + ((extract(epoch from s.created_at)::bigint + 7) % 12)::int, s.completed_at, ${month}
      from bench_new_scans s
    `.execute(trx);
    await sql`
      update domains d set status = 'warning', scan_count = d.scan_count + x.n, last_scan = greatest(d.last_scan, x.last), updated_at = now()
      from (select domain_id, count(*)::int as n, max(completed_at) as last from bench_new_scans group by domain_id) x
      where d.id = x.domain_id
    `.execute(trx);
    await summariseScanDays(trx, domainIds);
  });
}
