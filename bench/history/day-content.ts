/**
 * What a scan of one domain sees, shaped like the scanner's results (13 checks with details of a few
 * hundred bytes to ~2 KB and findings, and a DNS snapshot): every scan varies what varies in
 * production (dns_performance's "N ms" value, message and responseTimeMs, the SMTP hosts' bannerMs,
 * the snapshot's takenAt, the certificates' daysRemaining as the day turns), and a domain's real
 * state changes only when `applyChange` says so (an SPF include added, DMARC tightened, a listing).
 * Deterministic: the same seed makes the same day.
 */
import { checkTypes, type CheckStatus, type CheckType, type DnsSnapshot } from '@sendwell/contracts';
import type { CheckToStore } from '@sendwell/scan-engine';
import { seededRandom } from '@sendwell/testing';

const DAY_MS = 86_400_000;


export type ChangeKind = 'spf' | 'dmarc' | 'blacklist';
export const changeKinds: readonly ChangeKind[] = ['spf', 'dmarc', 'blacklist'];

const PROVIDERS = [
  { mx: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'], include: 'include:_spf.google.com', dkim: 'google', banner: 'mx.google.com ESMTP' },
  { mx: ['{d}.mail.protection.outlook.com'], include: 'include:spf.protection.outlook.com', dkim: 'selector1', banner: 'Microsoft ESMTP MAIL Service ready' },
  { mx: ['mx1.{d}', 'mx2.{d}'], include: 'ip4:198.51.100.0/24', dkim: 's1', banner: 'Postfix ESMTP' },
] as const;

const BLOCK_LISTS = [
  ['Spamhaus ZEN', 'zen.spamhaus.org', 'https://www.spamhaus.org/', 'https://check.spamhaus.org/'],
  ['Barracuda', 'b.barracudacentral.org', 'https://www.barracudacentral.org/', 'https://www.barracudacentral.org/rbl/removal-request'],
  ['SpamCop', 'bl.spamcop.net', 'https://www.spamcop.net/', null],
  ['UCEPROTECT L1', 'dnsbl-1.uceprotect.net', 'https://www.uceprotect.net/', 'https://www.uceprotect.net/en/rblcheck.php'],
  ['PSBL', 'psbl.surriel.com', 'https://psbl.org/', 'https://psbl.org/remove'],
  ['Mailspike', 'bl.mailspike.net', 'https://mailspike.org/', 'https://mailspike.org/iplookup.html'],
  ['DroneBL', 'dnsbl.dronebl.org', 'https://dronebl.org/', 'https://dronebl.org/lookup'],
  ['Spamhaus DBL', 'dbl.spamhaus.org', 'https://www.spamhaus.org/', 'https://check.spamhaus.org/'],
] as const;

/** One domain's real state: what its checks find, unchanged from scan to scan unless a change is applied. */
export interface DomainState {
  name: string;
  provider: number;
  mx: Array<{ exchange: string; priority: number; ips: string[] }>;
  a: string[];
  aaaa: string[];
  ns: string[];
  spfIncludes: string[];
  dmarcPolicy: 'none' | 'quarantine' | 'reject';
  listedOn: string | null;
  certExpiresAt: number;
  tlsRpt: boolean;
  bimi: boolean;
  dnssec: boolean;
}

const ip = (r: () => number, net = '192.0.2') => `${net}.${1 + Math.floor(r() * 250)}`;

export function newDomainState(index: number, seed: number, dayStart: number): DomainState {
  const r = seededRandom(seed * 1_000_003 + index);
  const name = `d${index}.history.bench.example`;
  const provider = Math.floor(r() * PROVIDERS.length);
  const mx = PROVIDERS[provider]!.mx.map((m, i) => ({ exchange: m.replace('{d}', name.replaceAll('.', '-')), priority: (i + 1) * 10, ips: [ip(r, '203.0.113'), ...(r() < 0.4 ? [`2001:db8::${(i + 1).toString(16)}`] : [])].sort() }));
  return {
    name,
    provider,
    mx,
    a: [ip(r), ...(r() < 0.3 ? [ip(r)] : [])].sort(),
    aaaa: r() < 0.4 ? ['2001:db8::10'] : [],
    ns: [`ns1.dns-host${index % 7}.example`, `ns2.dns-host${index % 7}.example`],
    spfIncludes: [PROVIDERS[provider]!.include, ...(r() < 0.3 ? ['include:mailgun.org'] : [])],
    dmarcPolicy: r() < 0.5 ? 'none' : r() < 0.6 ? 'quarantine' : 'reject',
    listedOn: null,
    certExpiresAt: dayStart + Math.floor((20 + r() * 70) * DAY_MS) + Math.floor(r() * DAY_MS),
    tlsRpt: r() < 0.5,
    bimi: r() < 0.2,
    dnssec: r() < 0.3,
  };
}

/** A real change: the next result of the checks it touches differs from the stored one. */
export function applyChange(state: DomainState, kind: ChangeKind): void {
  if (kind === 'spf') state.spfIncludes = [...state.spfIncludes, 'include:sendgrid.net'];
  else if (kind === 'dmarc') state.dmarcPolicy = state.dmarcPolicy === 'reject' ? 'quarantine' : state.dmarcPolicy === 'quarantine' ? 'reject' : 'quarantine';
  else state.listedOn = state.listedOn ? null : 'Spamhaus ZEN';
}

/** What varies every scan with nothing changed. */
export interface Volatile {
  at: Date;
  slowestMs: number;
  bannerMs: number[];
}

export function volatileOf(r: () => number, state: DomainState, at: Date): Volatile {
  return { at, slowestMs: 12 + Math.floor(r() * 140), bannerMs: state.mx.map(() => 25 + Math.floor(r() * 400)) };
}

const spfRecord = (s: DomainState) => `v=spf1 mx ${s.spfIncludes.join(' ')} ~all`;
const dmarcRecord = (s: DomainState) => `v=DMARC1; p=${s.dmarcPolicy}; rua=mailto:dmarc@${s.name}; fo=1; adkim=r; aspf=r; pct=100`;
const mtaStsRecord = (s: DomainState) => `v=STSv1; id=2026110${s.provider}T000000`;
const tlsRptRecord = (s: DomainState) => `v=TLSRPTv1; rua=mailto:tls-reports@${s.name}`;
const bimiRecord = (s: DomainState) => `v=BIMI1; l=https://${s.name}/brand/logo.svg; a=https://${s.name}/brand/vmc.pem`;
const daysLeft = (expiresAt: number, at: Date) => Math.floor((expiresAt - at.getTime()) / DAY_MS);

export function snapshotOf(s: DomainState, v: Volatile): DnsSnapshot {
  return {
    takenAt: v.at.toISOString(),
    a: s.a,
    aaaa: s.aaaa,
    mx: s.mx,
    ns: s.ns,
    txt: [spfRecord(s), `google-site-verification=${s.name.length}x${s.provider}Zq0lV9yT3uQkLmN8pRsWcXa`].sort(),
    spfRecord: spfRecord(s),
    dmarcRecord: dmarcRecord(s),
    mtaStsRecord: mtaStsRecord(s),
    tlsRptRecord: s.tlsRpt ? tlsRptRecord(s) : null,
    bimiRecord: s.bimi ? bimiRecord(s) : null,
    failed: [],
    profile: 'mail',
  };
}

function check(type: CheckType, status: CheckStatus, value: string | null, message: string, recommendation: string | null, details: object): CheckToStore {
  return { type, status, value, message, recommendation, details };
}

const finding = (code: string, severity: 'error' | 'warning' | 'info', message: string, rfc: string, recommendation: string) => ({ code, severity, message, rfc, recommendation });

/** The 13 checks of one scan, in `checkTypes` order. */
export function checksOf(s: DomainState, v: Volatile): CheckToStore[] {
  const p = PROVIDERS[s.provider]!;
  const spf = spfRecord(s);
  const lookups = 1 + s.spfIncludes.length * 3;
  const mailIps = s.mx.flatMap((m) => m.ips);
  const byType: Record<CheckType, CheckToStore> = {
    spf: check('spf', 'valid', spf, `SPF record found: ${lookups} of 10 DNS lookups`, 'End the record with -all once every sender is listed.', {
      record: spf,
      issue: null,
      lookupCount: lookups,
      flattenedIps: [...s.a, ...mailIps, '198.51.100.0/24', '35.190.247.0/24', '64.233.160.0/19'].map((a, i) => ({ ip: a, source: i < s.a.length ? 'mx' : s.spfIncludes[i % s.spfIncludes.length] })),
      findings: [finding('SPF_SOFTFAIL_ALL', 'info', 'The record ends in ~all: unlisted senders are marked, not refused.', 'RFC 7208 §5.1', 'Publish -all once every sending service is included.')],
    }),
    dkim: check('dkim', 'valid', `1 selector`, `DKIM key published for selector ${p.dkim}`, null, {
      records: [{ selector: p.dkim, record: `v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${'q3Xv8Lw2Zb'.repeat(26)}IDAQAB` }],
      selectorsChecked: ['default', 'google', 'selector1', 'selector2', 's1', 's2', 'k1', 'mail', 'dkim'],
      findings: [],
    }),
    dmarc: check(
      'dmarc',
      s.dmarcPolicy === 'none' ? 'warning' : 'valid',
      `p=${s.dmarcPolicy}`,
      s.dmarcPolicy === 'none' ? 'DMARC is published but p=none delivers failing mail.' : `DMARC enforced with p=${s.dmarcPolicy}.`,
      s.dmarcPolicy === 'none' ? 'Move to p=quarantine once the aggregate reports show every sender aligned.' : null,
      {
        record: dmarcRecord(s),
        policy: s.dmarcPolicy,
        pct: 100,
        findings:
          s.dmarcPolicy === 'none'
            ? [finding('DMARC_POLICY_NONE', 'warning', 'p=none asks receivers to deliver mail that fails DMARC.', 'RFC 7489 §6.3', 'Publish p=quarantine, then p=reject.')]
            : [finding('DMARC_RUA_PRESENT', 'info', 'Aggregate reports go to a mailbox of the domain.', 'RFC 7489 §7.2', 'Read the reports weekly.')],
      },
    ),
    blacklist: check(
      'blacklist',
      s.listedOn ? 'error' : 'success',
      s.listedOn ? `Listed on 1 of ${BLOCK_LISTS.length} lists` : `Clean on ${BLOCK_LISTS.length} of ${BLOCK_LISTS.length} lists`,
      s.listedOn ? `Listed on ${s.listedOn}.` : `Not listed on any of the ${BLOCK_LISTS.length} block lists checked.`,
      s.listedOn ? `Request removal from ${s.listedOn} after fixing the cause.` : null,
      {
        sites: BLOCK_LISTS.map(([name, zone, url, removalUrl]) => ({ name, status: s.listedOn === name ? 'listed' : 'clean', url, lookupUrl: `${url}lookup?q={ip}`, removalUrl, description: `${zone} DNS block list` })),
        totalIpsChecked: mailIps.length,
        cleanIps: s.listedOn ? mailIps.length - 1 : mailIps.length,
        listedIpsCount: s.listedOn ? 1 : 0,
        allIpResults: mailIps.map((a, i) => ({ ip: a, clean: !(s.listedOn && i === 0), source: 'MX', listedServices: s.listedOn && i === 0 ? [{ service: s.listedOn, removalUrl: 'https://check.spamhaus.org/' }] : [] })),
        findings: s.listedOn ? [finding('BLACKLIST_LISTED', 'error', `${mailIps[0]} is listed on ${s.listedOn}.`, 'RFC 5782', 'Find the cause, then request removal.')] : [],
      },
    ),
    ssl_certificate: check('ssl_certificate', 'valid', 'Valid', `Certificate valid, issued by R11`, null, {
      issuer: "Let's Encrypt R11",
      subject: s.name,
      altNames: [s.name, `www.${s.name}`],
      expiresAt: new Date(s.certExpiresAt).toISOString(),
      daysRemaining: daysLeft(s.certExpiresAt, v.at),
      protocol: 'TLSv1.3',
      findings: [],
    }),
    dns_performance: check('dns_performance', 'success', `${v.slowestMs} ms`, `Excellent: ${s.ns.length} name servers answered authoritatively, slowest in ${v.slowestMs} ms.`, null, {
      aRecords: s.a,
      mxRecords: s.mx,
      spfRecord: spf,
      spfIps: [...s.a, ...mailIps],
      dmarcRecord: dmarcRecord(s),
      responseTimeMs: v.slowestMs,
      findings: [],
    }),
    mta_sts: check('mta_sts', 'valid', 'enforce', 'MTA-STS policy in enforce mode covers every MX host.', null, {
      record: mtaStsRecord(s),
      records: [mtaStsRecord(s)],
      id: `2026110${s.provider}T000000`,
      policyUrl: `https://mta-sts.${s.name}/.well-known/mta-sts.txt`,
      policyFetch: { address: '192.0.2.80', httpStatus: 200, contentType: 'text/plain', error: null },
      policy: { version: 'STSv1', mode: 'enforce', maxAge: 604800, mx: s.mx.map((m) => m.exchange) },
      mxCoverage: s.mx.map((m) => ({ exchange: m.exchange, covered: true, pattern: m.exchange })),
      findings: [],
    }),
    tls_rpt: s.tlsRpt
      ? check('tls_rpt', 'valid', '1 address', 'TLS reports are requested.', null, { record: tlsRptRecord(s), records: [tlsRptRecord(s)], rua: [`mailto:tls-reports@${s.name}`], findings: [] })
      : check('tls_rpt', 'missing', null, 'No TLS-RPT record.', 'Publish a _smtp._tls TXT record to receive TLS failure reports.', {
          record: null,
          records: [],
          findings: [finding('TLSRPT_MISSING', 'info', 'No _smtp._tls record: TLS delivery failures go unreported.', 'RFC 8460 §3', 'Publish v=TLSRPTv1; rua=mailto:…')],
        }),
    smtp: check('smtp', 'valid', `${s.mx.length} of ${s.mx.length} hosts`, 'Every MX host offers STARTTLS with a trusted certificate.', null, {
      hosts: s.mx.map((m, i) => ({
        exchange: m.exchange,
        preference: m.priority,
        ip: m.ips[0],
        port: 25,
        banner: `220 ${m.exchange} ${p.banner}`,
        bannerMs: v.bannerMs[i],
        greetingName: m.exchange,
        greetingNameMatches: true,
        extensions: ['SIZE 157286400', '8BITMIME', 'STARTTLS', 'ENHANCEDSTATUSCODES', 'PIPELINING', 'CHUNKING', 'SMTPUTF8'],
        starttls: true,
        tlsVersion: 'TLSv1.3',
        cipher: 'TLS_AES_256_GCM_SHA384',
        certificate: { subject: m.exchange, issuer: 'GTS CA 1C3', altNames: [m.exchange], validFrom: '2026-10-01T00:00:00.000Z', validTo: '2026-12-24T00:00:00.000Z', nameMatches: true, trusted: true, authorizationError: null },
      })),
      findings: [],
    }),
    reverse_dns: check('reverse_dns', 'valid', `${mailIps.length} addresses`, 'Every sending address has forward-confirmed reverse DNS.', null, {
      addresses: s.mx.flatMap((m) => m.ips.map((a) => ({ ip: a, source: `MX ${m.exchange}`, ptr: [m.exchange], forwardConfirmed: true, confirmedName: m.exchange, generic: false, private: false, error: null }))),
      findings: [],
    }),
    dane: check('dane', 'missing', null, 'No TLSA records for the MX hosts.', 'Publish TLSA records (DANE-EE 3 1 1) once the zone is DNSSEC-signed.', {
      hosts: s.mx.map((m) => ({ exchange: m.exchange, ip: m.ips[0], tlsa: [], matched: null, matchedRecord: null, presentedRecord: `3 1 1 ${'5f2a'.repeat(16)}`, dnssec: null, error: null })),
      findings: [finding('DANE_NO_TLSA', 'info', 'No TLSA records at _25._tcp of the MX hosts.', 'RFC 7672 §2.2', 'Publish TLSA records after signing the zone.')],
    }),
    bimi: s.bimi
      ? check('bimi', 'valid', 'VMC', 'BIMI logo and Mark Certificate are valid.', null, {
          record: bimiRecord(s),
          selector: 'default',
          recordDomain: s.name,
          logoUrl: `https://${s.name}/brand/logo.svg`,
          authorityUrl: `https://${s.name}/brand/vmc.pem`,
          dmarc: { policyDomain: s.name, policy: s.dmarcPolicy, subdomainPolicy: null, pct: 100, enforced: s.dmarcPolicy !== 'none' },
          logo: { fetched: true, sizeBytes: 4312, profile: 'tiny-ps', square: true, width: 512, height: 512, title: s.name, errors: [] },
          certificate: { present: true, subject: s.name, issuer: 'DigiCert Verified Mark RSA4096 SHA256 2021 CA1', validTo: '2027-06-30T23:59:59.000Z', daysRemaining: daysLeft(Date.parse('2027-06-30T23:59:59.000Z'), v.at), markType: 'VMC', logoMatches: true, trusted: true },
          findings: [],
        })
      : check('bimi', 'missing', null, 'No BIMI record.', null, {
          record: null,
          selector: 'default',
          dmarc: { policyDomain: s.name, policy: s.dmarcPolicy, subdomainPolicy: null, pct: 100, enforced: s.dmarcPolicy !== 'none' },
          findings: [finding('BIMI_MISSING', 'info', 'No default._bimi record: no logo is shown beside your mail.', 'draft-brand-indicators §4', 'Publish a BIMI record with an SVG Tiny PS logo.')],
        }),
    dnssec: s.dnssec
      ? check('dnssec', 'valid', 'secure', 'The zone is signed and validates from the root.', null, {
          state: 'secure',
          zone: s.name,
          trustAnchor: ['. 20326 8 2 e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d'],
          chain: [
            { zone: '.', state: 'secure', dsDigestTypes: [], keyAlgorithms: [8], keyTags: [20326], validated: true, error: null },
            { zone: 'example', state: 'secure', dsDigestTypes: [2], keyAlgorithms: [13], keyTags: [31589], validated: true, error: null },
            { zone: s.name, state: 'secure', dsDigestTypes: [2], keyAlgorithms: [13], keyTags: [2371], validated: true, error: null },
          ],
          signedRecords: ['SOA', 'MX', 'TXT'].map((type) => ({ name: s.name, type, state: 'secure', validated: true, algorithm: 13, expiresAt: '2026-12-20T00:00:00.000Z', error: null })),
          findings: [],
        })
      : check('dnssec', 'missing', 'insecure', 'The zone is not signed.', 'Sign the zone at your DNS host and publish the DS record at the registrar.', {
          state: 'insecure',
          zone: s.name,
          chain: [
            { zone: '.', state: 'secure', dsDigestTypes: [], keyAlgorithms: [8], keyTags: [20326], validated: true, error: null },
            { zone: 'example', state: 'insecure', dsDigestTypes: [], keyAlgorithms: [], keyTags: [], validated: false, error: 'no DS record at the parent' },
          ],
          findings: [finding('DNSSEC_UNSIGNED', 'info', 'The zone is unsigned: its answers can be forged in transit.', 'RFC 4033 §4', 'Enable DNSSEC signing.')],
        }),
  };
  return checkTypes.map((type) => byType[type]);
}
