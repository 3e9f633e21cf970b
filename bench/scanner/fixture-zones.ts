/**
 * The fixture world of the scanner benchmark: 1,000 mail domains with the records real domains have,
 * the ESPs their SPF records include, the name servers, and the block-list zones. Built the same way
 * (deterministically from the domain count) in the DNS child process and in the benchmark, so the
 * benchmark knows each domain's sending IP without asking.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { DnsFixtureRecords } from '@sendwell/testing';
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

export interface BenchDomain {
  name: string;
  /** An address the domain's SPF authorises (its first MX host's), for the SPF peer comparison. */
  sendingIp: string;
  mxHost: string;
  /** The mail provider's index (0 = the largest), or null when self-hosted. */
  provider: number | null;
}

const providerWeights = Array.from({ length: MX_PROVIDERS }, (_, p) => 1 / (p + 1));
const providerTotal = providerWeights.reduce((a, b) => a + b, 0);

/** The domain's mail provider, from its index alone (the DNS child and the benchmark agree without sharing state). */
function providerOf(i: number): number | null {
  if (i % 50 === 7) return null; // listed on a block list: self-hosted, so no provider's domains are listed with it
  const random = prng(0x5eed + i * 7919);
  if (random() >= MX_PROVIDER_SHARE) return null;
  let pick = random() * providerTotal;
  for (let p = 0; p < MX_PROVIDERS; p++) {
    pick -= providerWeights[p] as number;
    if (pick < 0) return p;
  }
  return MX_PROVIDERS - 1;
}

export function providerMxHost(p: number, k: number): string {
  return `mx${k}.mailprovider${String(p).padStart(2, '0')}.${BENCH_SUFFIX}`;
}

/** The provider's MX host addresses, in 198.18.0.0/15 (RFC 2544, benchmarking). */
function providerMxAddress(p: number, k: number): string {
  return `198.18.${p}.${k}`;
}

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
    `${hosted} of ${domains.length} domains (${((hosted / domains.length) * 100).toFixed(0)}%) receive mail at ${perProvider.size} shared providers ` +
    `(2 MX hosts, 2 IPv4 addresses each; Zipf-like, largest ${counts.slice(0, 3).join('/')} domains, smallest ${counts.at(-1) ?? 0}); ` +
    `${selfHosted} self-hosted with unique addresses (1-2 MX hosts); every SPF record includes 1-3 of 6 shared ESP records`
  );
}

/** A small deterministic PRNG (mulberry32), so the DNS child and the benchmark build the same world. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function domainName(i: number): string {
  return `shop${String(i).padStart(4, '0')}.${BENCH_SUFFIX}`;
}

function reverseV4(ip: string): string {
  return ip.split('.').reverse().join('.');
}

export function benchDomains(count: number): BenchDomain[] {
  return Array.from({ length: count }, (_, i) => {
    const provider = providerOf(i);
    return provider === null
      ? { name: domainName(i), sendingIp: mxAddress(i, 1), mxHost: `mx1.${domainName(i)}`, provider }
      : { name: domainName(i), sendingIp: providerMxAddress(provider, 1), mxHost: providerMxHost(provider, 1), provider };
  });
}

function mxAddress(i: number, n: number): string {
  const net = n === 1 ? '198.51' : '203.0';
  return `${net}.${100 + Math.floor(i / 250)}.${(i % 250) + 1}`;
}

export interface FixtureWorld {
  records: Record<string, DnsFixtureRecords>;
  domains: BenchDomain[];
}

export function buildFixtureWorld(count: number): FixtureWorld {
  const random = prng(20261121);
  const records: Record<string, DnsFixtureRecords> = {};
  // One 2048-bit key for every domain that has one: its size is the real one, its uniqueness is irrelevant.
  const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

  // Both on the fixture's address: the DNS performance check asks each for the SOA at authoritativeDnsPort.
  for (const ns of NAME_SERVERS) records[ns] = { A: ['127.0.0.1'] };
  // The ESPs' SPF records: ranges, and for two of them a nested include, as Google's and Microsoft's have.
  for (const [p, provider] of PROVIDERS.entries()) {
    const nested = p < 2 ? ` include:_netblocks.${provider}.example` : '';
    records[`_spf.${provider}.example`] = { TXT: [`v=spf1 ip4:192.0.${p}.0/24 ip4:100.${64 + p}.0.0/16 ip6:2001:db8:${p}::/48${nested} ~all`] };
    if (p < 2) records[`_netblocks.${provider}.example`] = { TXT: [`v=spf1 ip4:100.${80 + p}.0.0/16 ip4:100.${90 + p}.0.0/16 ~all`] };
  }
  records[`*._report._dmarc.${EXTERNAL_REPORTS}`] = { TXT: ['v=DMARC1'] };
  records[EXTERNAL_REPORTS] = { MX: [{ priority: 10, exchange: `mx.${EXTERNAL_REPORTS}` }] };
  for (let p = 0; p < MX_PROVIDERS; p++) {
    for (const k of [1, 2]) records[providerMxHost(p, k)] = { A: [providerMxAddress(p, k)] };
  }

  const domains = benchDomains(count);
  for (const [i, domain] of domains.entries()) {
    const name = domain.name;
    const includes = 1 + Math.floor(random() * 3);
    const first = Math.floor(random() * PROVIDERS.length);
    const spfIncludes = Array.from({ length: includes }, (_, k) => `include:_spf.${PROVIDERS[(first + k) % PROVIDERS.length]}.example`);
    const all = random() < 0.8 ? '-all' : '~all';
    const txt: DnsFixtureRecords['TXT'] = [`v=spf1 mx ${spfIncludes.join(' ')} ${all}`, `google-site-verification=${i.toString(36)}bench`];
    const mxCount = random() < 0.7 ? 2 : 1;
    const provider = domain.provider;
    const mx =
      provider === null
        ? Array.from({ length: mxCount }, (_, k) => ({ priority: 10 * (k + 1), exchange: `mx${k + 1}.${name}` }))
        : [1, 2].map((k) => ({ priority: 10 * k, exchange: providerMxHost(provider, k) }));

    records[name] = {
      // The web host is the local TLS server (loopback); the IPv6 address is documentation space.
      A: ['127.0.0.1'],
      AAAA: [`2001:db8:${(i >> 8).toString(16)}::${(i & 0xff).toString(16)}`],
      MX: mx,
      NS: NAME_SERVERS,
      SOA: { mname: NAME_SERVERS[0] as string, rname: `hostmaster.${name}`, serial: 2026112100 + (i % 7) },
      TXT: txt,
    };
    records[`www.${name}`] = random() < 0.5 ? { CNAME: name } : { A: ['127.0.0.1'] };
    if (provider === null) for (let k = 1; k <= mxCount; k++) records[`mx${k}.${name}`] = { A: [mxAddress(i, k)] };

    const policy = random() < 0.5 ? 'reject' : random() < 0.6 ? 'quarantine' : 'none';
    const external = random() < 0.25 ? `,mailto:agg@${EXTERNAL_REPORTS}` : '';
    records[`_dmarc.${name}`] = { TXT: [`v=DMARC1; p=${policy}; rua=mailto:dmarc@${name}${external}; adkim=r; aspf=r`] };

    if (random() < 0.6) {
      const selector = DKIM_SELECTORS[Math.floor(random() * DKIM_SELECTORS.length)] as string;
      records[`${selector}._domainkey.${name}`] = { TXT: [`v=DKIM1; k=rsa; p=${dkimKey}`] };
    }
    // About 1 in 50 domains has an MX address on the first IP list and the domain on the first domain list.
    if (i % 50 === 7) {
      const zone = DNSBL_IP_ZONES[0] as string;
      records[`${reverseV4(mxAddress(i, 1))}.${zone}`] = { A: ['127.0.0.2'], TXT: ['Listed in the benchmark fixture'] };
      const dzone = DNSBL_DOMAIN_ZONES[0];
      if (dzone) records[`${name}.${dzone}`] = { A: ['127.0.1.2'] };
    }
  }
  return { records, domains };
}
