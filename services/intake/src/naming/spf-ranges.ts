import ipaddr from 'ipaddr.js';
import type { NamingDns } from './dns.js';
import { normaliseHostName, type IpAddress } from './host-name.js';

/** One published network of a service. */
export interface AddressRange {
  address: IpAddress;
  prefix: number;
  /** As written, e.g. '192.0.2.0/24', for logs and tests. */
  cidr: string;
}

export interface SpfRangesLimits {
  /** DNS queries after the service's own names (include, redirect, a, mx and the mx hosts' addresses); RFC 7208 §4.6.4's 10. */
  maxLookups: number;
  /** Nesting of include/redirect below a service's own name. */
  maxDepth: number;
  /** Ranges kept per service: Google publishes a few dozen. */
  maxRanges: number;
}

export const DEFAULT_SPF_LIMITS: SpfRangesLimits = { maxLookups: 10, maxDepth: 5, maxRanges: 2000 };

/**
 * Shortest prefixes taken as a service's own: a record (or a hostile include) publishing
 * 0.0.0.0/0 would otherwise name every sender after that service.
 */
const MIN_PREFIX = { ipv4: 8, ipv6: 16 } as const;
/** MX hosts resolved per mx mechanism (RFC 7208 §4.6.4). */
const MAX_MX_HOSTS = 10;

export interface SpfRangesResult {
  ranges: AddressRange[];
  /** DNS queries counted against maxLookups. */
  lookups: number;
  /** Some query failed (timeout, SERVFAIL): the ranges may be missing some. */
  failed: boolean;
  /** The lookup, depth or range cap cut the walk short. */
  truncated: boolean;
}

interface Walk {
  dns: NamingDns;
  limits: SpfRangesLimits;
  visited: Set<string>;
  seen: Set<string>;
  result: SpfRangesResult;
}

/** Takes one lookup from the budget; false (and marks truncation) when it is spent. */
function takeLookup(walk: Walk): boolean {
  if (walk.result.lookups >= walk.limits.maxLookups) {
    walk.result.truncated = true;
    return false;
  }
  walk.result.lookups++;
  return true;
}

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 3) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function addRange(walk: Walk, address: IpAddress, prefix: number): void {
  const kind = address.kind();
  const max = kind === 'ipv4' ? 32 : 128;
  if (prefix > max || prefix < MIN_PREFIX[kind]) return;
  const network = kind === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`) : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  const cidr = `${network.toString()}/${prefix}`;
  if (walk.seen.has(cidr)) return;
  if (walk.result.ranges.length >= walk.limits.maxRanges) {
    walk.result.truncated = true;
    return;
  }
  walk.seen.add(cidr);
  walk.result.ranges.push({ address: network, prefix, cidr });
}

/** `ip4:` / `ip6:` values: the address must be of that family, written plainly (no 0x or short forms). */
function addLiteral(walk: Walk, family: 'ipv4' | 'ipv6', value: string): void {
  const slash = value.indexOf('/');
  const text = slash >= 0 ? value.slice(0, slash) : value;
  const length = slash >= 0 ? value.slice(slash + 1) : family === 'ipv4' ? '32' : '128';
  if (!isDigits(length)) return;
  if (family === 'ipv4' ? !ipaddr.IPv4.isValidFourPartDecimal(text) : !ipaddr.IPv6.isValid(text)) return;
  addRange(walk, family === 'ipv4' ? ipaddr.IPv4.parse(text) : ipaddr.IPv6.parse(text), Number(length));
}

/** `a` / `mx` arguments: `[:domain][/cidr4][//cidr6]`. Null when malformed or using macros we do not expand. */
function domainAndPrefixes(rest: string, current: string): { domain: string; v4: number; v6: number } | null {
  let domainPart = '';
  let cidrPart = rest;
  if (rest.startsWith(':')) {
    const slash = rest.indexOf('/');
    domainPart = slash >= 0 ? rest.slice(1, slash) : rest.slice(1);
    cidrPart = slash >= 0 ? rest.slice(slash) : '';
  }
  let v4 = 32;
  let v6 = 128;
  if (cidrPart !== '') {
    const double = cidrPart.indexOf('//');
    const v4Part = double >= 0 ? cidrPart.slice(0, double) : cidrPart;
    const v6Part = double >= 0 ? cidrPart.slice(double + 2) : '';
    if (v4Part !== '') {
      if (!v4Part.startsWith('/') || !isDigits(v4Part.slice(1))) return null;
      v4 = Number(v4Part.slice(1));
    }
    if (double >= 0) {
      if (!isDigits(v6Part)) return null;
      v6 = Number(v6Part);
    }
  }
  const domain = domainPart === '' ? current : normaliseHostName(domainPart);
  if (domain === null || domain.includes('%')) return null;
  return { domain, v4, v6 };
}

/** A and AAAA of a host, each within the budget, as ranges of the given lengths. */
async function addHostAddresses(walk: Walk, host: string, v4: number, v6: number): Promise<void> {
  for (const [family, lookup] of [
    ['ipv4', () => walk.dns.a(host)],
    ['ipv6', () => walk.dns.aaaa(host)],
  ] as const) {
    if (!takeLookup(walk)) return;
    try {
      for (const value of await lookup()) {
        if (family === 'ipv4' ? ipaddr.IPv4.isValidFourPartDecimal(value) : ipaddr.IPv6.isValid(value)) addRange(walk, ipaddr.parse(value), family === 'ipv4' ? v4 : v6);
      }
    } catch {
      walk.result.failed = true;
    }
  }
}

/** A `+` qualifier (or none) authorises; `-`, `~` and `?` name addresses that are not the service's. */
function passing(term: string): { term: string; pass: boolean } {
  const first = term[0];
  if (first === '+' || first === '-' || first === '~' || first === '?') return { term: term.slice(1), pass: first === '+' };
  return { term, pass: true };
}

async function walkRecord(walk: Walk, domain: string, depth: number): Promise<void> {
  if (walk.visited.has(domain)) return; // include loops, and diamonds already collected
  walk.visited.add(domain);
  let records: string[];
  try {
    records = await walk.dns.txt(domain);
  } catch {
    walk.result.failed = true;
    return;
  }
  const spf = records.filter((record) => {
    const lower = record.toLowerCase();
    return lower === 'v=spf1' || lower.startsWith('v=spf1 ');
  });
  // Two SPF records is a permerror (RFC 7208 §4.5): neither is the service's word.
  if (spf.length !== 1) return;
  const terms = (spf[0] as string).split(' ').filter((term) => term !== '').slice(1, 200);

  let redirect: string | null = null;
  let hasAll = false;
  for (const raw of terms) {
    const { term, pass } = passing(raw);
    const lower = term.toLowerCase();
    if (lower === 'all') {
      hasAll = true;
      continue;
    }
    if (lower.startsWith('redirect=')) {
      redirect = term.slice('redirect='.length);
      continue;
    }
    if (!pass) continue;
    if (lower.startsWith('ip4:')) addLiteral(walk, 'ipv4', term.slice(4));
    else if (lower.startsWith('ip6:')) addLiteral(walk, 'ipv6', term.slice(4));
    else if (lower.startsWith('include:')) await follow(walk, term.slice('include:'.length), depth);
    else if (lower === 'a' || lower.startsWith('a:') || lower.startsWith('a/')) {
      const target = domainAndPrefixes(term.slice(1), domain);
      if (target) await addHostAddresses(walk, target.domain, target.v4, target.v6);
    } else if (lower === 'mx' || lower.startsWith('mx:') || lower.startsWith('mx/')) {
      const target = domainAndPrefixes(term.slice(2), domain);
      if (!target || !takeLookup(walk)) continue;
      let hosts: string[];
      try {
        hosts = await walk.dns.mx(target.domain);
      } catch {
        walk.result.failed = true;
        continue;
      }
      for (const host of hosts.slice(0, MAX_MX_HOSTS)) {
        const name = normaliseHostName(host);
        if (name) await addHostAddresses(walk, name, target.v4, target.v6);
      }
    }
    // exists:, ptr and modifiers publish no ranges.
  }
  // A redirect is ignored when the record has an `all` (RFC 7208 §6.1).
  if (redirect !== null && !hasAll) await follow(walk, redirect, depth);
}

async function follow(walk: Walk, target: string, depth: number): Promise<void> {
  const name = normaliseHostName(target);
  if (name === null || name.includes('%')) return; // macros depend on the sender: no fixed ranges
  if (depth + 1 > walk.limits.maxDepth) {
    walk.result.truncated = true;
    return;
  }
  if (walk.visited.has(name)) return;
  if (!takeLookup(walk)) return;
  await walkRecord(walk, name, depth + 1);
}

/**
 * The networks a service's SPF records authorise: ip4/ip6 mechanisms, following include: and
 * redirect= and resolving a and mx, within a budget of DNS queries and a depth shared by all of the
 * service's names. Mechanisms qualified -, ~ or ? are not the service's. Never throws.
 */
export async function resolveSpfRanges(dns: NamingDns, names: readonly string[], limits: SpfRangesLimits = DEFAULT_SPF_LIMITS): Promise<SpfRangesResult> {
  const walk: Walk = { dns, limits, visited: new Set(), seen: new Set(), result: { ranges: [], lookups: 0, failed: false, truncated: false } };
  for (const raw of names) {
    const name = normaliseHostName(raw);
    if (name) await walkRecord(walk, name, 0);
  }
  return walk.result;
}
