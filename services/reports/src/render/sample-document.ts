/**
 * A realistic report document for renderer tests, previews and the bench: a domain with a weak SPF,
 * one listing, 90 days of history and DNS changes. Deterministic (no clock, no randomness).
 */
import {
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  SENDER_REQUIREMENTS,
  senderRequirementIds,
  type CheckStatus,
  type ReportDocument,
  type ReportKind,
  type ReportTrendPoint,
  type RequirementEvidence,
  type SenderRequirement,
  type SenderRequirementId,
  type SenderRequirements,
} from '@sendwell/contracts';

const DAY_MS = 86_400_000;

export interface SampleOptions {
  kind?: ReportKind;
  /** Days of history in the trends (one point per day). */
  days?: number;
  domainName?: string;
  generatedAt?: string;
}

function trendPoints(days: number, end: number): ReportTrendPoint[] {
  const points: ReportTrendPoint[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(end - i * DAY_MS).toISOString().slice(0, 10);
    // A dip in the middle (a listing), recovered toward the end; a few days without a scan.
    const dip = i > days * 0.35 && i < days * 0.55;
    const gap = i % 23 === 11;
    const score = gap ? null : Math.round(74 + 8 * Math.sin(i / 7) - (dip ? 18 : 0));
    const spf: CheckStatus = i < days * 0.2 ? 'warning' : 'valid';
    points.push({
      day,
      score,
      status: score === null ? null : score >= 80 ? 'healthy' : score >= 60 ? 'warning' : 'critical',
      checks: gap
        ? {}
        : {
            spf,
            dkim: 'valid',
            dmarc: i < days * 0.7 ? 'valid' : 'warning',
            blacklist: dip ? 'error' : 'success',
            ssl_certificate: 'valid',
            dns_performance: i % 9 === 0 ? 'warning' : 'success',
          },
    });
  }
  return points;
}

export function sampleReportDocument(options: SampleOptions = {}): ReportDocument {
  const kind = options.kind ?? 'full';
  const domain = options.domainName ?? 'example-shop.com';
  const generatedAt = options.generatedAt ?? '2026-11-24T09:30:00.000Z';
  const end = Date.parse(generatedAt);
  const days = options.days ?? 90;
  const actions: ReportDocument['actions'] = [
    {
      rank: 1,
      check: 'blacklist',
      title: 'Get 203.0.113.25 removed from Spamhaus ZEN',
      detail: 'Your mail server 203.0.113.25 is listed on Spamhaus ZEN. Find what sent the spam, stop it, then request removal.',
      expectedGain: 4,
      guidePath: `/fixing-guide/${domain}/blacklist`,
    },
    {
      rank: 2,
      check: 'spf',
      title: 'Reduce SPF DNS lookups to 10 or fewer',
      detail: 'Your SPF record needs 12 DNS lookups; receivers stop at 10 and treat the result as a permanent error (RFC 7208 §4.6.4).',
      expectedGain: 5.2,
      guidePath: `/fixing-guide/${domain}/spf`,
    },
    {
      rank: 3,
      check: 'dmarc',
      title: 'Move DMARC from p=none to p=quarantine',
      detail: 'p=none only reports; forged mail from your domain is still delivered.',
      expectedGain: 3.5,
      guidePath: `/fixing-guide/${domain}/dmarc`,
    },
    {
      rank: 4,
      check: 'dns_performance',
      title: 'Speed up your slowest name server',
      detail: 'ns2 answered in 412 ms; receivers time out lookups that slow under load.',
      expectedGain: 2.4,
      guidePath: null,
    },
  ];
  const doc: ReportDocument = {
    $schema: REPORT_SCHEMA_ID,
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind,
    reportId: 42,
    reportType: kind,
    generatedAt,
    domain: { id: 7, name: domain },
    scan: { id: '0b7c6a52-8a43-4f4e-9d4a-5d7e1f0c2a11', completedAt: new Date(end - 3_600_000).toISOString(), trigger: 'scheduled' },
    overall: {
      status: 'warning',
      score: 71,
      label: 'Good',
      trend: 'declining',
      previousScore: 78,
      breakdown: {
        emailAuthentication: { score: 30.8, max: 40 },
        securityDeliverability: { score: 23, max: 35 },
        configurationHealth: { score: 17.2, max: 25 },
      },
    },
    summary: `${domain} scores 71 (Good) and needs attention: one blacklist listing and an SPF record over the DNS lookup limit. Fixing the top three actions is expected to add about 13 points.`,
    checks:
      kind === 'summary'
        ? []
        : [
            {
              type: 'blacklist',
              title: 'Blacklists',
              status: 'error',
              published: [{ label: 'Addresses checked', value: '203.0.113.25, 203.0.113.26' }],
              message: 'Listed on 1 of 8 blacklists',
              findings: [
                {
                  code: 'BLACKLIST_LISTED',
                  severity: 'error',
                  message: '203.0.113.25 is listed on Spamhaus ZEN (127.0.0.4: exploits block list).',
                  rfc: 'RFC 5782 §2.1',
                  fix: 'Find the compromised host or script that sent spam from this address, fix it, then request removal at https://check.spamhaus.org/.',
                },
              ],
              points: { earned: 6, max: 10 },
            },
            {
              type: 'spf',
              title: 'SPF',
              status: 'warning',
              published: [{ label: 'TXT', value: 'v=spf1 include:_spf.google.com include:sendgrid.net include:mailgun.org include:servers.mcsv.net include:spf.protection.outlook.com ~all' }],
              message: 'SPF record needs 12 DNS lookups (limit 10)',
              findings: [
                {
                  code: 'SPF_TOO_MANY_LOOKUPS',
                  severity: 'error',
                  message: 'The record needs 12 DNS-querying mechanisms; evaluation stops at 10 with a permanent error.',
                  rfc: 'RFC 7208 §4.6.4',
                  fix: 'Remove includes of services you no longer use, or replace an include with the ip4/ip6 ranges it covers.',
                },
                {
                  code: 'SPF_SOFTFAIL_ALL',
                  severity: 'info',
                  message: 'The record ends in ~all: unauthorised senders soft-fail rather than fail.',
                  rfc: 'RFC 7208 §5.1',
                  fix: 'Once every sender is listed, end the record with -all.',
                },
              ],
              points: { earned: 7.8, max: 13 },
            },
            {
              type: 'dmarc',
              title: 'DMARC',
              status: 'warning',
              published: [{ label: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc@example-shop.com' }],
              message: 'DMARC policy is none',
              findings: [
                {
                  code: 'DMARC_POLICY_NONE',
                  severity: 'warning',
                  message: 'p=none asks receivers to deliver mail that fails DMARC.',
                  rfc: 'RFC 7489 §6.3',
                  fix: 'After two weeks of clean aggregate reports, publish p=quarantine, then p=reject.',
                },
              ],
              points: { earned: 10.5, max: 14 },
            },
            {
              type: 'dns_performance',
              title: 'DNS performance',
              status: 'warning',
              published: [
                { label: 'NS', value: 'ns1.example-dns.net, ns2.example-dns.net' },
                { label: 'MX', value: '10 mx1.example-shop.com, 20 mx2.example-shop.com' },
              ],
              message: 'Slowest name server answered in 412 ms',
              findings: [{ code: 'DNS_SLOW_RESPONSE', severity: 'warning', message: 'ns2.example-dns.net answered in 412 ms.', rfc: null, fix: 'Use an anycast DNS provider.' }],
              points: { earned: 9.6, max: 12 },
            },
            {
              type: 'dkim',
              title: 'DKIM',
              status: 'valid',
              published: [{ label: 'google._domainkey', value: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwb3…' }],
              message: '1 DKIM key found',
              findings: [],
              points: { earned: 13, max: 13 },
            },
            {
              type: 'ssl_certificate',
              title: 'SSL certificate',
              status: 'valid',
              published: [
                { label: 'Issuer', value: "Let's Encrypt R11" },
                { label: 'Expires', value: '2027-01-30 (67 days)' },
              ],
              message: 'Certificate valid for 67 more days',
              findings: [],
              points: { earned: 15, max: 15 },
            },
          ],
    blacklist:
      kind === 'summary'
        ? null
        : {
            lists: [
              { name: 'Spamhaus ZEN', status: 'listed', removalUrl: 'https://check.spamhaus.org/', lookupUrl: 'https://check.spamhaus.org/' },
              { name: 'Barracuda', status: 'clean', removalUrl: 'https://www.barracudacentral.org/rbl/removal-request', lookupUrl: null },
              { name: 'SpamCop', status: 'clean', removalUrl: 'https://www.spamcop.net/bl.shtml', lookupUrl: null },
              { name: 'SORBS', status: 'unknown', removalUrl: null, lookupUrl: null },
              { name: 'UCEPROTECT Level 1', status: 'clean', removalUrl: null, lookupUrl: null },
              { name: 'PSBL', status: 'clean', removalUrl: null, lookupUrl: null },
              { name: 'Mailspike', status: 'clean', removalUrl: null, lookupUrl: null },
              { name: 'SURBL', status: 'clean', removalUrl: null, lookupUrl: null },
            ],
            addresses: [
              { ip: '203.0.113.25', source: 'MX mx1.example-shop.com', listedOn: [{ list: 'Spamhaus ZEN', removalUrl: 'https://check.spamhaus.org/' }] },
              { ip: '203.0.113.26', source: 'MX mx2.example-shop.com', listedOn: [] },
            ],
            counts: { listed: 1, clean: 6, unknown: 1 },
          },
    trends:
      kind === 'summary'
        ? null
        : {
            days,
            points: trendPoints(days, end),
            scansInWindow: days * 6,
            dnsChanges: [
              { at: new Date(end - 40 * DAY_MS).toISOString(), record: 'DMARC', impact: 'weakens', summary: 'DMARC policy downgraded from quarantine to none' },
              { at: new Date(end - 12 * DAY_MS).toISOString(), record: 'SPF', impact: 'mail', summary: 'SPF gained include:mailgun.org' },
              { at: new Date(end - 12 * DAY_MS).toISOString(), record: 'MX', impact: 'mail', summary: 'MX changed: added 20 mx2.example-shop.com' },
            ],
          },
    actions: kind === 'summary' ? actions.slice(0, 3) : actions,
    senderRequirements: sampleSenderRequirements({ domainName: domain, evaluatedAt: generatedAt }),
  };
  return doc;
}

/**
 * A verdict as the intake judges it: six requirements met, one-click unsubscribe not met, the message
 * format unknown (no test message), the complaint rate not measurable. `spfDetail` replaces the SPF
 * requirement's DNS-scan evidence, for tests that need a value of their own there.
 */
export function sampleSenderRequirements(options: { domainId?: number; domainName?: string; evaluatedAt?: string; spfDetail?: string } = {}): SenderRequirements {
  const evaluatedAt = options.evaluatedAt ?? '2026-11-24T09:30:00.000Z';
  const domain = options.domainName ?? 'example-shop.com';
  const scanAt = new Date(Date.parse(evaluatedAt) - 3 * 3_600_000).toISOString();
  const flowDay = `${evaluatedAt.slice(0, 10)}T00:00:00.000Z`;
  const ev = (source: RequirementEvidence['source'], status: RequirementEvidence['status'], detail: string): RequirementEvidence => ({
    source,
    status,
    detail,
    observedAt: source === 'dns' ? scanAt : flowDay,
  });
  const judged: Record<SenderRequirementId, Pick<SenderRequirement, 'status' | 'evidence' | 'fix'>> = {
    spf: {
      status: 'met',
      evidence: [
        ev('dns', 'met', options.spfDetail ?? `${domain} publishes v=spf1 include:_spf.google.com include:mailgun.org ~all.`),
        ev('mail_flow', 'met', '99.2% of 12,480 messages passed SPF in the last 30 days.'),
      ],
      fix: null,
    },
    dkim: { status: 'met', evidence: [ev('mail_flow', 'met', '98.7% of 12,480 messages carried a passing DKIM signature (selectors google, mg).')], fix: null },
    dmarc: { status: 'met', evidence: [ev('dns', 'met', `_dmarc.${domain} publishes v=DMARC1; p=none; rua=mailto:dmarc@${domain}.`)], fix: null },
    alignment: { status: 'met', evidence: [ev('mail_flow', 'met', '99.1% of 12,480 messages passed DMARC (SPF or DKIM aligned).')], fix: null },
    reverse_dns: { status: 'met', evidence: [ev('mail_flow', 'met', 'All 6 sending addresses have forward-confirmed PTR names.')], fix: null },
    tls: { status: 'met', evidence: [ev('mail_flow', 'met', '4,210 of 4,210 TLS-RPT sessions were encrypted.')], fix: null },
    one_click_unsubscribe: {
      status: 'unmet',
      evidence: [ev('mail_test', 'unmet', 'The test message had List-Unsubscribe with a mailto address only, and no List-Unsubscribe-Post header.')],
      fix: 'Add an https List-Unsubscribe address and List-Unsubscribe-Post: List-Unsubscribe=One-Click to marketing mail (your sending service has a setting for it).',
    },
    message_format: { status: 'unknown', evidence: [], fix: 'Send a test message to your inbox-placement address to check its headers.' },
    complaint_rate: { status: 'not_measurable', evidence: [], fix: null },
  };
  const requirements = senderRequirementIds.map((id): SenderRequirement => ({ id, ...SENDER_REQUIREMENTS[id], ...judged[id] }));
  const count = (status: SenderRequirement['status']) => requirements.filter((r) => r.status === status).length;
  return {
    domainId: options.domainId ?? 1,
    domain,
    evaluatedAt,
    sources: {
      dns: { state: 'used', observedAt: scanAt, summary: 'The latest scan: SPF, DMARC and MX records.' },
      mail_flow: { state: 'used', observedAt: flowDay, summary: '38 aggregate and 9 TLS-RPT reports in the last 30 days.' },
      mail_test: { state: 'none', summary: 'No test message in the last 30 days.' },
    },
    requirements,
    counts: { met: count('met'), unmet: count('unmet'), unknown: count('unknown'), not_measurable: count('not_measurable') },
  };
}
