/**
 * The fixture world of the scanner benchmark: 1,000 mail domains with the records real domains have,
 * the ESPs their SPF records include, the mail providers and their MX hosts, the name servers, the
 * block-list zones, and the second depth: MX hosts that answer SMTP with STARTTLS, reverse DNS,
 * MTA-STS, TLS-RPT, DANE, BIMI and DNSSEC, in the shares described below.
 *
 * Everything is planned deterministically from the domain count (`planWorld`), so the parent (which
 * issues the certificates and serves the HTTPS and SMTP fixtures), the DNS child (which serves the
 * records) and the worker (which scans and compares what the checks say with what the world holds)
 * agree without sharing state. Only key material is random: the certificates are made by the parent
 * (the DNS child gets the DANE records' key digests over IPC), the DNSSEC keys by the DNS child (the
 * worker gets the test root's DS, its trust anchor, through the parent), as uniqueness of either is
 * irrelevant to what is measured.
 *
 * Addresses: every host a check connects to is on loopback (the worker runs with `allowLoopback`),
 * each MX host on an address of its own in 127/8 so the block lists, reverse DNS and the SMTP
 * fixture tell them apart: provider p's host k at 127.1.p.k, self-hosted domain i's host k at
 * 127.(1+k).⌊i/250⌋.(i mod 250 + 1) (beyond 64,000 domains in the next pair of /16s). The web, MTA-STS policy and BIMI hosts are 127.0.0.1 (one TLS
 * and one HTTPS server choose the certificate by SNI); the SMTP fixture listens on 0.0.0.0, so every
 * 127/8 address reaches it, and greets and presents a certificate by the address connected to.
 *
 * Shares, resembling the Internet's mail domains, but high enough that each check costs what it
 * costs when it finds something (rare things would cost nothing in a 1,000-domain sample):
 * - MX: 80% at 50 providers (Zipf-like), 20% self-hosted (1-2 hosts) — MX_PROVIDERS below.
 * - SMTP: every MX host greets with its own name, offers STARTTLS and presents a certificate for its
 *   name from the benchmark's CA; of the self-hosted hosts (not those with DANE) 10% present their
 *   hoster's shared certificate for another name (smtp warning) and 5% offer no STARTTLS (smtp error).
 * - Reverse DNS: provider hosts are forward-confirmed, except the second host of 5 providers whose
 *   PTR names the first (not confirmed: warning); self-hosted hosts 78% confirmed, 8% a generic
 *   hoster name that resolves back (valid, RDNS_GENERIC info), 9% a PTR naming the domain's web host
 *   (not confirmed), 5% no PTR.
 * - MTA-STS: 10% of the domains, 65% of them in enforce mode (max_age a week) and 35% in testing
 *   (max_age a day: warning); the policy's mx patterns cover every MX host.
 * - TLS-RPT: 85% of the MTA-STS domains and 6% of the others (~14%), rua mailto: or https:.
 * - DNSSEC: a test root (RSA/SHA-256, KSK + ZSK, as the real root) whose DS is the worker's trust
 *   anchor, the `example` TLD (ECDSA P-256), 15% of the domains (three quarters ECDSA P-256 with one
 *   key, a quarter RSA/SHA-256 KSK + ZSK) and the zones of the three DANE providers; every other
 *   domain is an unsigned delegation (dnssec missing). Keys are shared per "DNS operator", as large
 *   DNS hosts share one key over their zones.
 * - DANE (TLSA 3 1 1 of the MX certificate's key): both hosts of providers 05 and 12, and the first
 *   host only of provider 27 (DANE_PARTIAL warning): 5 of the 100 provider hosts; 40% of the signed
 *   self-hosted domains; 2% of the unsigned self-hosted ones publish TLSA records anyway
 *   (DANE_TLSA_UNSIGNED warning).
 * - BIMI: ~3% of the domains, only among those whose DMARC policy enforces (as BIMI requires); an
 *   SVG Tiny PS logo of a few kB, 70% with a Verified Mark Certificate embedding it (valid), 30%
 *   without (BIMI_NO_CERTIFICATE warning).
 * `expectedStatuses` says what each of those seven checks should report for a domain; the worker
 * prints it beside what they reported.
 */
import { generateKeyPairSync } from 'node:crypto';
import { DNSSEC_ALGORITHMS, dsPresentation, generateZoneKey, seededRandom, signFixtureZones, ZONE_KEY_FLAGS, type DnsFixtureRecords, type FixtureZone, type ZoneSigningKey } from '@sendwell/testing';
import {
  DEFAULT_DNSBL_DOMAIN_ZONES,
  DEFAULT_DNSBL_IP_ZONES,
} from '../../services/scanner/src/checks/blacklist/zones.js';

/** Under `.example` (RFC 2606): nothing here can collide with a real name. */
export const BENCH_SUFFIX = 'example';
export const NAME_SERVERS = ['ns1.benchdns.example', 'ns2.benchdns.example'];
/** The selectors keys are published at (all in the scanner's common list). */
const DKIM_SELECTORS = ['google', 'selector1', 'k1', 's1', 'default'];
/** ESPs a domain's SPF includes (1-3 of them); two of them include a further record. */
const PROVIDERS = ['mailhost', 'sendgrid-like', 'mailchimp-like', 'ses-like', 'office-like', 'zoho-like'];
const EXTERNAL_REPORTS = 'dmarc-reports.example';
/** The web host of the self-hosted domains' hoster: its shared certificate and its generic PTR names. */
export const HOSTER = 'hosting.example';
const TLSRPT_COLLECTOR = 'tlsrpt-collector.example';
/** Loopback: the TLS, HTTPS and DNS fixtures listen here. */
const LOCAL = '127.0.0.1';

/**
 * The scanner's own built-in block lists, queried by name: the fixture server is the only server
 * the benchmark's resolver asks, so these names are answered by the fixture (NXDOMAIN unless listed)
 * and the per-zone metadata (IPv6 support, refusal codes) is the production one, which keeps the
 * query count per scan what production sends.
 */
export const DNSBL_IP_ZONES = [...DEFAULT_DNSBL_IP_ZONES];
export const DNSBL_DOMAIN_ZONES = [...DEFAULT_DNSBL_DOMAIN_ZONES];

/**
 * Where the domains' mail goes, as on the Internet, where a few hundred providers (Google, Microsoft,
 * the big ESPs and hosters) receive most domains' mail: MX_PROVIDER_SHARE of the domains use the MX
 * hosts of one of MX_PROVIDERS providers (two hosts each, on shared addresses), picked with Zipf-like
 * weights (1/rank: the first provider receives ~22% of those domains, the last ~0.4%); the rest (and
 * every domain the fixture lists on a block list) are self-hosted, with their own mx1/mx2 hosts on
 * unique addresses. The scanner's shared answer cache helps exactly as much as this sharing allows.
 */
export const MX_PROVIDERS = 50;
export const MX_PROVIDER_SHARE = 0.8;
/** Providers publishing TLSA records on both MX hosts (their zones signed), and one on its first host only. */
const DANE_PROVIDERS = [5, 12];
const PARTIAL_DANE_PROVIDER = 27;
/** Providers whose second MX host's PTR names the first host (a load balancer's leftover). */
const MISMATCHED_PTR_PROVIDER = (p: number): boolean => p % 10 === 4;
/** Self-hosted domains per pair of /16s (127.2-3/16 for the first 64,000, then 127.4-5/16 …). */
const DOMAINS_PER_BLOCK = 64_000;
const MAX_DOMAINS = DOMAINS_PER_BLOCK * 126;

export type MtaStsMode = 'enforce' | 'testing';
/** How a host answers SMTP: its certificate for its name, its hoster's shared certificate, or no STARTTLS. */
export type MxHostKind = 'good' | 'name-mismatch' | 'no-starttls';
/** Its reverse DNS: forward-confirmed, a generic name that resolves back, a PTR naming another host, none. */
export type PtrKind = 'confirmed' | 'generic' | 'mismatched' | 'none';

export interface MxHostPlan {
  name: string;
  address: string;
  /** The provider's index, or null for a self-hosted domain's host. */
  provider: number | null;
  kind: MxHostKind;
  ptr: PtrKind;
  /** The name its PTR record gives (null: no PTR). */
  ptrName: string | null;
  /** Publishes TLSA 3 1 1 at `_25._tcp.{name}`. */
  dane: boolean;
  /** Which certificate it presents after STARTTLS (see `mxCertificateGroup`); null without STARTTLS. */
  certificate: string | null;
}

export interface BenchDomain {
  index: number;
  name: string;
  /** An address the domain's SPF authorises (its first MX host's), for the SPF peer comparison. */
  sendingIp: string;
  mxHost: string;
  /** The mail provider's index (0 = the largest), or null when self-hosted. */
  provider: number | null;
  /** Its MX hosts by preference. */
  mx: MxHostPlan[];
  spf: { includes: string[]; all: '-all' | '~all' };
  www: 'cname' | 'a';
  dmarc: { policy: 'reject' | 'quarantine' | 'none'; external: boolean };
  dkimSelector: string | null;
  /** On the first IP and domain block lists (1 in 50, self-hosted). */
  listed: boolean;
  mtaSts: MtaStsMode | null;
  /** The TLS-RPT record's rua, or null without a record. */
  tlsRpt: string | null;
  bimi: 'vmc' | 'logo' | null;
  /** The zone's DNSSEC algorithm, null when unsigned. */
  dnssec: typeof DNSSEC_ALGORITHMS.ECDSAP256SHA256 | typeof DNSSEC_ALGORITHMS.RSASHA256 | null;
}

export interface WorldPlan {
  domains: BenchDomain[];
  /** Every MX host, the providers' first, each once. */
  mxHosts: MxHostPlan[];
}

const providerWeights = Array.from({ length: MX_PROVIDERS }, (_, p) => 1 / (p + 1));
const providerTotal = providerWeights.reduce((a, b) => a + b, 0);

/** The domain's mail provider, from its index alone (the DNS child and the benchmark agree without sharing state). */
function providerOf(i: number): number | null {
  if (isListed(i)) return null; // listed on a block list: self-hosted, so no provider's domains are listed with it
  const random = seededRandom(0x5eed + i * 7919);
  if (random() >= MX_PROVIDER_SHARE) return null;
  let pick = random() * providerTotal;
  for (let p = 0; p < MX_PROVIDERS; p++) {
    pick -= providerWeights[p] as number;
    if (pick < 0) return p;
  }
  return MX_PROVIDERS - 1;
}

/** About 1 in 50 domains has an MX address on the first IP list and the domain on the first domain list. */
function isListed(i: number): boolean {
  return i % 50 === 7;
}

export function providerZone(p: number): string {
  return `mailprovider${String(p).padStart(2, '0')}.${BENCH_SUFFIX}`;
}

export function providerMxHost(p: number, k: number): string {
  return `mx${k}.${providerZone(p)}`;
}


export function domainName(i: number): string {
  return `shop${String(i).padStart(4, '0')}.${BENCH_SUFFIX}`;
}

function reverseV4(ip: string): string {
  return ip.split('.').reverse().join('.');
}

function selfHostedAddress(i: number, k: number): string {
  const block = Math.floor(i / DOMAINS_PER_BLOCK);
  const within = i % DOMAINS_PER_BLOCK;
  return `127.${1 + k + 2 * block}.${Math.floor(within / 250)}.${(within % 250) + 1}`;
}

/** The certificate an MX host presents: its provider's (both hosts), its group of 10 self-hosted domains', or the hoster's shared one. */
function mxCertificateGroup(provider: number | null, i: number, kind: MxHostKind): string | null {
  if (kind === 'no-starttls') return null;
  if (kind === 'name-mismatch') return 'hoster';
  return provider === null ? `self-${Math.floor(i / 10)}` : `provider-${provider}`;
}

function providerHosts(): MxHostPlan[] {
  const hosts: MxHostPlan[] = [];
  for (let p = 0; p < MX_PROVIDERS; p++) {
    for (const k of [1, 2]) {
      const mismatched = k === 2 && MISMATCHED_PTR_PROVIDER(p);
      hosts.push({
        name: providerMxHost(p, k),
        address: `127.1.${p}.${k}`,
        provider: p,
        kind: 'good',
        ptr: mismatched ? 'mismatched' : 'confirmed',
        ptrName: mismatched ? providerMxHost(p, 1) : providerMxHost(p, k),
        dane: DANE_PROVIDERS.includes(p) || (p === PARTIAL_DANE_PROVIDER && k === 1),
        certificate: mxCertificateGroup(p, 0, 'good'),
      });
    }
  }
  return hosts;
}

/**
 * The whole world, deterministic from the count. The core records use one PRNG stream in a fixed
 * order (so they stay what they were before the second depth); the second depth draws from a PRNG of
 * each domain's own, so adding a feature never reshuffles another.
 */
export function planWorld(count: number): WorldPlan {
  if (count > MAX_DOMAINS) throw new Error(`at most ${MAX_DOMAINS} fixture domains (their MX addresses are in 127/8)`);
  const random = seededRandom(20261121);
  const providers = providerHosts();
  const selfHosted: MxHostPlan[] = [];
  const domains: BenchDomain[] = [];
  for (let i = 0; i < count; i++) {
    const name = domainName(i);
    const provider = providerOf(i);
    // The core stream, in the order the records were always drawn.
    const includeCount = 1 + Math.floor(random() * 3);
    const first = Math.floor(random() * PROVIDERS.length);
    const spf = {
      includes: Array.from({ length: includeCount }, (_, k) => `_spf.${PROVIDERS[(first + k) % PROVIDERS.length]}.example`),
      all: random() < 0.8 ? ('-all' as const) : ('~all' as const),
    };
    const mxCount = random() < 0.7 ? 2 : 1;
    const www = random() < 0.5 ? ('cname' as const) : ('a' as const);
    const policy = random() < 0.5 ? ('reject' as const) : random() < 0.6 ? ('quarantine' as const) : ('none' as const);
    const external = random() < 0.25;
    const dkimSelector = random() < 0.6 ? (DKIM_SELECTORS[Math.floor(random() * DKIM_SELECTORS.length)] as string) : null;

    // The second depth, from the domain's own stream (every draw taken, used or not).
    const own = seededRandom(0x2d2d + i * 104729);
    const [uMtaSts, uMode, uTlsRpt, uRua, uBimi, uVmc, uSigned, uAlgorithm, uDane] = Array.from({ length: 9 }, own);
    const hostDraws = [1, 2].map(() => ({ kind: own(), ptr: own() }));
    const mtaSts: MtaStsMode | null = (uMtaSts as number) < 0.1 ? ((uMode as number) < 0.65 ? 'enforce' : 'testing') : null;
    const tlsRpt = (uTlsRpt as number) < (mtaSts ? 0.85 : 0.06) ? ruaOf(name, uRua as number) : null;
    // 80% of the domains enforce DMARC: 3.75% of those is ~3% of all.
    const bimi = policy !== 'none' && (uBimi as number) < 0.0375 ? ((uVmc as number) < 0.7 ? 'vmc' : 'logo') : null;
    const signed = (uSigned as number) < 0.15;
    const dnssec = signed ? ((uAlgorithm as number) < 0.75 ? DNSSEC_ALGORITHMS.ECDSAP256SHA256 : DNSSEC_ALGORITHMS.RSASHA256) : null;

    let mx: MxHostPlan[];
    if (provider === null) {
      const dane = (uDane as number) < (signed ? 0.4 : 0.02);
      mx = Array.from({ length: mxCount }, (_, index) => {
        const k = index + 1;
        const draw = hostDraws[index] as { kind: number; ptr: number };
        // A host with TLSA records serves STARTTLS (its owner went that far), though perhaps with the hoster's certificate.
        const kind: MxHostKind = draw.kind < 0.1 ? 'name-mismatch' : draw.kind < 0.15 && !dane ? 'no-starttls' : 'good';
        const hostName = `mx${k}.${name}`;
        const address = selfHostedAddress(i, k);
        const ptr: PtrKind = draw.ptr < 0.78 ? 'confirmed' : draw.ptr < 0.86 ? 'generic' : draw.ptr < 0.95 ? 'mismatched' : 'none';
        const ptrName = ptr === 'confirmed' ? hostName : ptr === 'generic' ? genericPtrName(address) : ptr === 'mismatched' ? name : null;
        return { name: hostName, address, provider: null, kind, ptr, ptrName, dane, certificate: mxCertificateGroup(null, i, kind) };
      });
      selfHosted.push(...mx);
    } else {
      mx = providers.filter((host) => host.provider === provider);
    }
    const firstMx = mx[0] as MxHostPlan;
    domains.push({
      index: i,
      name,
      sendingIp: firstMx.address,
      mxHost: firstMx.name,
      provider,
      mx,
      spf,
      www,
      dmarc: { policy, external },
      dkimSelector,
      listed: isListed(i),
      mtaSts,
      tlsRpt,
      bimi,
      dnssec,
    });
  }
  return { domains, mxHosts: [...providers, ...selfHosted] };
}

/** The cheap part of the plan, for callers that need only names and mail hosts. */
export function benchDomains(count: number): BenchDomain[] {
  return planWorld(count).domains;
}

/** Where TLS reports go: the domain's own mailbox, a collector's mailbox, or a collector's HTTPS endpoint. */
function ruaOf(name: string, u: number): string {
  if (u < 0.6) return `mailto:tlsrpt@${name}`;
  if (u < 0.9) return `mailto:reports+${name}@${TLSRPT_COLLECTOR}`;
  return `https://${TLSRPT_COLLECTOR}/v1/tls-reports`;
}

/** A hoster's name for an address, e.g. 127-2-0-5.static.hosting.example (spells the address out). */
function genericPtrName(address: string): string {
  return `${address.replaceAll('.', '-')}.static.${HOSTER}`;
}

/** The MTA-STS policy a domain serves (RFC 8461 §3.2): its MX hosts, a provider's by wildcard. */
export function mtaStsPolicy(domain: BenchDomain): string | null {
  if (domain.mtaSts === null) return null;
  const patterns = domain.provider === null ? domain.mx.map((host) => host.name) : [`*.${providerZone(domain.provider)}`];
  const maxAge = domain.mtaSts === 'enforce' ? 604_800 : 86_400;
  return ['version: STSv1', `mode: ${domain.mtaSts}`, ...patterns.map((pattern) => `mx: ${pattern}`), `max_age: ${maxAge}`, ''].join('\r\n');
}

export const MTA_STS_POLICY_PATH = '/.well-known/mta-sts.txt';
export const BIMI_LOGO_PATH = '/bimi/logo.svg';
export const BIMI_VMC_PATH = '/bimi/vmc.pem';

/**
 * The domain's BIMI logo, SVG Tiny PS as the BIMI Group's guidance asks (tiny-ps profile, version
 * 1.2, a title, a square viewBox, nothing that runs or loads), with a few hundred path points so it
 * weighs what a real logo does (a few kB) for the parser.
 */
export function bimiLogo(domain: BenchDomain): string {
  const random = seededRandom(0xb1b1 + domain.index);
  const points = Array.from({ length: 240 }, (_, k) => {
    const angle = (k / 240) * Math.PI * 2;
    const radius = 150 + random() * 60;
    return `${(256 + Math.cos(angle) * radius).toFixed(2)},${(256 + Math.sin(angle) * radius).toFixed(2)}`;
  });
  const hue = Math.floor(random() * 360);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512">` +
    `<title>${domain.name}</title>` +
    `<rect width="512" height="512" fill="hsl(${hue},60%,35%)"/>` +
    `<path d="M${points.join(' L')} Z" fill="#ffffff"/>` +
    `<circle cx="256" cy="256" r="64" fill="hsl(${hue},60%,35%)"/>` +
    '</svg>\n'
  );
}

/** Names served by the web fixtures for a domain: its web host, www, and its MTA-STS and BIMI hosts when it has them. */
export function webHostNames(domain: BenchDomain): string[] {
  return [domain.name, `www.${domain.name}`, ...(domain.mtaSts ? [`mta-sts.${domain.name}`] : []), ...(domain.bimi ? [`bimi.${domain.name}`] : [])];
}

const share = (n: number, of: number): string => `${((n / Math.max(1, of)) * 100).toFixed(0)}%`;

/** One line for the benchmark's output: how the fixture domains' mail hosting is distributed. */
export function describeMailHosting(domains: readonly BenchDomain[]): string {
  const perProvider = new Map<number, number>();
  let selfHosted = 0;
  for (const domain of domains) {
    if (domain.provider === null) selfHosted++;
    else perProvider.set(domain.provider, (perProvider.get(domain.provider) ?? 0) + 1);
  }
  const counts = [...perProvider.values()].sort((a, b) => b - a);
  const hosted = domains.length - selfHosted;
  return (
    `${hosted} of ${domains.length} domains (${share(hosted, domains.length)}) receive mail at ${perProvider.size} shared providers ` +
    `(2 MX hosts, 2 IPv4 addresses each; Zipf-like, largest ${counts.slice(0, 3).join('/')} domains, smallest ${counts.at(-1) ?? 0}); ` +
    `${selfHosted} self-hosted with unique addresses (1-2 MX hosts); every SPF record includes 1-3 of 6 shared ESP records`
  );
}

/** One line for the benchmark's output: the second depth as the world holds it. */
export function describeSecondDepth(plan: WorldPlan): string {
  const { domains, mxHosts } = plan;
  const n = domains.length;
  const count = (predicate: (domain: BenchDomain) => boolean): number => domains.filter(predicate).length;
  const selfHosts = mxHosts.filter((host) => host.provider === null);
  const hostCount = (predicate: (host: MxHostPlan) => boolean): number => mxHosts.filter(predicate).length;
  const mtaSts = count((d) => d.mtaSts !== null);
  const bimi = count((d) => d.bimi !== null);
  const signed = count((d) => d.dnssec !== null);
  return (
    `${mxHosts.length} MX hosts on loopback, all answering SMTP with STARTTLS except ${hostCount((h) => h.kind === 'no-starttls')} self-hosted (${hostCount((h) => h.kind === 'name-mismatch')} more with their hoster's certificate for another name); ` +
    `PTR forward-confirmed on ${hostCount((h) => h.ptr === 'confirmed' || h.ptr === 'generic')} of them (${hostCount((h) => h.ptr === 'generic')} generic names), mismatched ${hostCount((h) => h.ptr === 'mismatched')}, none ${hostCount((h) => h.ptr === 'none')}; ` +
    `MTA-STS ${mtaSts} domains (${share(mtaSts, n)}; ${count((d) => d.mtaSts === 'enforce')} enforce, ${count((d) => d.mtaSts === 'testing')} testing); ` +
    `TLS-RPT ${count((d) => d.tlsRpt !== null)} (${share(count((d) => d.tlsRpt !== null), n)}); ` +
    `DANE TLSA on ${hostCount((h) => h.dane && h.provider !== null)} of ${mxHosts.length - selfHosts.length} provider hosts and ${selfHosts.filter((h) => h.dane).length} of ${selfHosts.length} self-hosted, ${count((d) => d.mx.some((h) => h.dane))} domains (${share(count((d) => d.mx.some((h) => h.dane)), n)}); ` +
    `BIMI ${bimi} (${share(bimi, n)}; ${count((d) => d.bimi === 'vmc')} with a VMC); ` +
    `DNSSEC: test root, .example and ${signed} domains signed (${share(signed, n)}; ${count((d) => d.dnssec === DNSSEC_ALGORITHMS.RSASHA256)} RSA/SHA-256, the rest ECDSA P-256), ${DANE_PROVIDERS.length + 1} provider zones`
  );
}

/** The seven checks of the second depth. */
export const SECOND_DEPTH_CHECKS = ['smtp', 'mta_sts', 'tls_rpt', 'reverse_dns', 'dane', 'bimi', 'dnssec'] as const;
export type SecondDepthCheck = (typeof SECOND_DEPTH_CHECKS)[number];

const RANK = ['valid', 'warning', 'error'] as const;
const worst = (statuses: ReadonlyArray<(typeof RANK)[number]>): (typeof RANK)[number] =>
  statuses.reduce<(typeof RANK)[number]>((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), 'valid');

/** What each second-depth check should report for the domain, from the world alone. */
export function expectedStatuses(domain: BenchDomain): Record<SecondDepthCheck, string> {
  const smtp = worst(domain.mx.map((host) => (host.kind === 'good' ? 'valid' : host.kind === 'name-mismatch' ? 'warning' : 'error')));
  const reverse = domain.mx.every((host) => host.ptr === 'confirmed' || host.ptr === 'generic') ? 'valid' : 'warning';
  const withTlsa = domain.mx.filter((host) => host.dane);
  // TLSA only on some hosts (DANE_PARTIAL), or in an unsigned zone (DANE_TLSA_UNSIGNED): warnings.
  const tlsaUnsigned = domain.provider === null && domain.dnssec === null;
  const dane = withTlsa.length === 0 ? 'missing' : withTlsa.length < domain.mx.length || tlsaUnsigned ? 'warning' : 'valid';
  return {
    smtp,
    mta_sts: domain.mtaSts === null ? 'missing' : domain.mtaSts === 'enforce' ? 'valid' : 'warning',
    tls_rpt: domain.tlsRpt === null ? 'missing' : 'valid',
    reverse_dns: reverse,
    dane,
    bimi: domain.bimi === null ? 'missing' : domain.bimi === 'vmc' ? 'valid' : 'warning',
    dnssec: domain.dnssec === null ? 'missing' : 'valid',
  };
}

/** Key material the world's records need that only the parent has: the DANE records' SPKI digests, by MX host name. */
export interface WorldSecrets {
  tlsa: Record<string, string>;
}

export interface FixtureWorld {
  records: Record<string, DnsFixtureRecords>;
  domains: BenchDomain[];
}

function soa(zone: string, serial: number): DnsFixtureRecords['SOA'] {
  return { mname: NAME_SERVERS[0] as string, rname: `hostmaster.${zone === '' ? 'root.benchdns.example' : zone}`, serial };
}

/** The records of the plan (unsigned); `secrets.tlsa` gives the TLSA data of the DANE hosts. */
export function buildFixtureWorld(count: number, secrets: WorldSecrets = { tlsa: {} }): FixtureWorld {
  const plan = planWorld(count);
  const records: Record<string, DnsFixtureRecords> = {};
  // One 2048-bit key for every domain that has one: its size is the real one, its uniqueness is irrelevant.
  const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

  // The root and the TLD, zones of their own (the DNSSEC walk starts at the root).
  records['.'] = { SOA: soa('', 2026112100), NS: NAME_SERVERS };
  records[BENCH_SUFFIX] = { SOA: soa(BENCH_SUFFIX, 2026112100), NS: NAME_SERVERS };
  // Both on the fixture's address: the DNS performance check asks each for the SOA at authoritativeDnsPort.
  for (const ns of NAME_SERVERS) records[ns] = { A: [LOCAL] };
  // The ESPs' SPF records: ranges, and for two of them a nested include, as Google's and Microsoft's have.
  for (const [p, provider] of PROVIDERS.entries()) {
    const nested = p < 2 ? ` include:_netblocks.${provider}.example` : '';
    records[`_spf.${provider}.example`] = { TXT: [`v=spf1 ip4:192.0.${p}.0/24 ip4:100.${64 + p}.0.0/16 ip6:2001:db8:${p}::/48${nested} ~all`] };
    if (p < 2) records[`_netblocks.${provider}.example`] = { TXT: [`v=spf1 ip4:100.${80 + p}.0.0/16 ip4:100.${90 + p}.0.0/16 ~all`] };
  }
  records[`*._report._dmarc.${EXTERNAL_REPORTS}`] = { TXT: ['v=DMARC1'] };
  records[EXTERNAL_REPORTS] = { MX: [{ priority: 10, exchange: `mx.${EXTERNAL_REPORTS}` }] };
  // Each provider is a zone of its own (its TLSA records are validated there).
  for (let p = 0; p < MX_PROVIDERS; p++) records[providerZone(p)] = { SOA: soa(providerZone(p), 2026112100), NS: NAME_SERVERS };

  // Every MX host: its address, its PTR (and a generic PTR name's address), its TLSA record.
  for (const host of plan.mxHosts) {
    records[host.name] = { A: [host.address] };
    if (host.ptrName !== null) records[`${reverseV4(host.address)}.in-addr.arpa`] = { PTR: [host.ptrName] };
    if (host.ptr === 'generic' && host.ptrName !== null) records[host.ptrName] = { A: [host.address] };
    if (host.dane) {
      const data = secrets.tlsa[host.name];
      if (data) records[`_25._tcp.${host.name}`] = { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data }] };
    }
  }

  for (const domain of plan.domains) {
    const { name, index: i } = domain;
    const txt: DnsFixtureRecords['TXT'] = [`v=spf1 mx ${domain.spf.includes.map((include) => `include:${include}`).join(' ')} ${domain.spf.all}`, `google-site-verification=${i.toString(36)}bench`];
    records[name] = {
      // The web host is the local TLS server (loopback); the IPv6 address is documentation space.
      A: [LOCAL],
      AAAA: [`2001:db8:${(i >> 8).toString(16)}::${(i & 0xff).toString(16)}`],
      MX: domain.mx.map((host, k) => ({ priority: 10 * (k + 1), exchange: host.name })),
      NS: NAME_SERVERS,
      SOA: soa(name, 2026112100 + (i % 7)),
      TXT: txt,
    };
    records[`www.${name}`] = domain.www === 'cname' ? { CNAME: name } : { A: [LOCAL] };

    const external = domain.dmarc.external ? `,mailto:agg@${EXTERNAL_REPORTS}` : '';
    records[`_dmarc.${name}`] = { TXT: [`v=DMARC1; p=${domain.dmarc.policy}; rua=mailto:dmarc@${name}${external}; adkim=r; aspf=r`] };
    if (domain.dkimSelector !== null) records[`${domain.dkimSelector}._domainkey.${name}`] = { TXT: [`v=DKIM1; k=rsa; p=${dkimKey}`] };

    if (domain.mtaSts !== null) {
      records[`_mta-sts.${name}`] = { TXT: [`v=STSv1; id=2026112${i % 10}T0800`] };
      records[`mta-sts.${name}`] = { A: [LOCAL] };
    }
    if (domain.tlsRpt !== null) records[`_smtp._tls.${name}`] = { TXT: [`v=TLSRPTv1; rua=${domain.tlsRpt}`] };
    if (domain.bimi !== null) {
      const authority = domain.bimi === 'vmc' ? ` a=https://bimi.${name}${BIMI_VMC_PATH};` : '';
      records[`default._bimi.${name}`] = { TXT: [`v=BIMI1; l=https://bimi.${name}${BIMI_LOGO_PATH};${authority}`] };
      records[`bimi.${name}`] = { A: [LOCAL] };
    }
    if (domain.listed) {
      const zone = DNSBL_IP_ZONES[0] as string;
      records[`${reverseV4(domain.sendingIp)}.${zone}`] = { A: ['127.0.0.2'], TXT: ['Listed in the benchmark fixture'] };
      const dzone = DNSBL_DOMAIN_ZONES[0];
      if (dzone) records[`${name}.${dzone}`] = { A: ['127.0.1.2'] };
    }
  }
  return { records, domains: plan.domains };
}

/** The zone keys of one "DNS operator": one key for ECDSA (a CSK), a KSK and a ZSK for RSA. */
function operatorKeys(algorithm: number): ZoneSigningKey[] {
  if (algorithm === DNSSEC_ALGORITHMS.RSASHA256) return [generateZoneKey('.', { algorithm }), generateZoneKey('.', { algorithm, flags: ZONE_KEY_FLAGS })];
  return [generateZoneKey('.', { algorithm })];
}

/** A shared key under another zone's name: the same DNSKEY, its DS digest and RRSIG signer name the zone's. */
const forZone = (keys: readonly ZoneSigningKey[], zone: string): ZoneSigningKey[] => keys.map((key) => ({ ...key, zone }));

/**
 * The world signed (RFC 4033-4035 as dnssec.ts of @sendwell/testing implements it): the root with an
 * RSA/SHA-256 KSK and ZSK, the TLD with an ECDSA key, the signed domains and the DANE providers' zones
 * with keys shared per algorithm (two ECDSA operators, one RSA). Every other zone (the unsigned
 * domains and providers, and the TLDs of the block lists and in-addr.arpa) is an unsigned
 * delegation, so the root's key does not sign names it would never hold. Returns the records and
 * the root's DS, the trust anchor, in presentation form.
 */
export function signFixtureWorld(world: FixtureWorld): { records: Record<string, DnsFixtureRecords>; trustAnchor: string } {
  const root = operatorKeys(DNSSEC_ALGORITHMS.RSASHA256).map((key) => ({ ...key, zone: '' }));
  const operators = {
    ecdsa: [operatorKeys(DNSSEC_ALGORITHMS.ECDSAP256SHA256), operatorKeys(DNSSEC_ALGORITHMS.ECDSAP256SHA256)],
    rsa: operatorKeys(DNSSEC_ALGORITHMS.RSASHA256),
  };
  const zones: FixtureZone[] = [
    { name: '.', keys: root },
    { name: BENCH_SUFFIX, keys: forZone(operatorKeys(DNSSEC_ALGORITHMS.ECDSAP256SHA256), BENCH_SUFFIX) },
  ];
  for (const domain of world.domains) {
    if (domain.dnssec === null) zones.push({ name: domain.name });
    else if (domain.dnssec === DNSSEC_ALGORITHMS.RSASHA256) zones.push({ name: domain.name, keys: forZone(operators.rsa, domain.name) });
    else zones.push({ name: domain.name, keys: forZone(operators.ecdsa[domain.index % 2] as ZoneSigningKey[], domain.name) });
  }
  for (let p = 0; p < MX_PROVIDERS; p++) {
    const signed = DANE_PROVIDERS.includes(p) || p === PARTIAL_DANE_PROVIDER;
    zones.push(signed ? { name: providerZone(p), keys: forZone(operators.ecdsa[p % 2] as ZoneSigningKey[], providerZone(p)) } : { name: providerZone(p) });
  }
  const tlds = new Set(Object.keys(world.records).map((name) => name.split('.').at(-1) as string));
  for (const tld of tlds) if (tld !== BENCH_SUFFIX && tld !== '') zones.push({ name: tld });
  // in-addr.arpa below arpa: the PTR records are nobody's signed data.
  return { records: signFixtureZones(world.records, zones), trustAnchor: dsPresentation(root[0] as ZoneSigningKey) };
}
