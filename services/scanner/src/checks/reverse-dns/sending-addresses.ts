import { normaliseHostName, planMxHosts } from '@sendwell/smtp-client';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { readableIp, parseIp } from '../shared/ip.js';
import { fetchSpfRecord, SpfTempError } from '../shared/spf-record/lookup.js';
import type { MacroString } from '../shared/spf-record/macro.js';
import { parseRecord, type Mechanism } from '../shared/spf-record/parse.js';

/** Addresses judged per scan: MX hosts' first, then the SPF record's, in order. */
export const MAX_ADDRESSES = 10;
/** MX hosts whose addresses are taken (the domain's own and those an SPF `mx` names). */
const MAX_MX_HOSTS = 5;

export interface SendingAddress {
  ip: string;
  /** Where it came from: "MX mx1.example.com", "SPF ip4", "SPF a", "SPF mx:example.net". */
  source: string;
}

export interface SendingAddresses {
  addresses: SendingAddress[];
  /** Distinct addresses found beyond MAX_ADDRESSES. */
  skipped: number;
  /** Lookups that failed (timeouts, SERVFAIL), in words. */
  errors: string[];
}

/**
 * The addresses mail from the domain is likely sent from: its MX hosts' (receiving hosts usually send
 * too) and the single addresses its own SPF record names (ip4 /32, ip6 /128, `a` and `mx` of the
 * top-level record; includes and redirects belong to providers, whose reverse DNS is theirs).
 */
export async function collectSendingAddresses(resolver: Resolver, domain: string): Promise<SendingAddresses> {
  const collected = new Collector();
  const [mxHosts, spfTerms] = await Promise.all([mxAddresses(resolver, domain, domain, `MX`, collected.errors), spfAddresses(resolver, domain, collected.errors)]);
  for (const entry of [...mxHosts, ...spfTerms]) collected.add(entry);
  return { addresses: collected.addresses, skipped: collected.skipped, errors: collected.errors };
}

class Collector {
  readonly addresses: SendingAddress[] = [];
  readonly errors: string[] = [];
  private readonly seen = new Set<string>();
  skipped = 0;

  add(entry: SendingAddress): void {
    const parsed = parseIp(entry.ip);
    if (!parsed) return;
    const key = readableIp(parsed);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.addresses.length < MAX_ADDRESSES) this.addresses.push({ ip: key, source: entry.source });
    else this.skipped += 1;
  }
}

/** The addresses of a name's MX hosts, lowest preference first, each with `${label} ${exchange}` as source. */
async function mxAddresses(resolver: Resolver, name: string, domain: string, label: string, errors: string[]): Promise<SendingAddress[]> {
  const answers = await lookup(resolver, name, 'MX', domain, errors);
  // Planned as every MX reader plans them (@sendwell/smtp-client): by preference, once each, a null MX naming none.
  const exchanges = planMxHosts(answers, MAX_MX_HOSTS).hosts.map((mx) => mx.exchange);
  const perHost = await Promise.all(exchanges.map(async (exchange) => (await hostAddresses(resolver, exchange, domain, errors)).map((ip) => ({ ip, source: `${label} ${exchange}` }))));
  return perHost.flat();
}

/** The single addresses of the domain's own SPF record, in the record's order. */
async function spfAddresses(resolver: Resolver, domain: string, errors: string[]): Promise<SendingAddress[]> {
  let text: string;
  try {
    const found = await fetchSpfRecord(resolver, domain);
    if (found.kind !== 'found') return [];
    text = found.text;
  } catch (error) {
    if (error instanceof SpfTempError) {
      errors.push(error.message);
      return [];
    }
    throw error;
  }
  const parsed = parseRecord(text);
  if (!parsed.ok) return [];
  const perTerm = await Promise.all(parsed.record.mechanisms.map((mechanism) => termAddresses(resolver, domain, mechanism, errors)));
  return perTerm.flat();
}

async function termAddresses(resolver: Resolver, domain: string, mechanism: Mechanism, errors: string[]): Promise<SendingAddress[]> {
  const network = mechanism.network;
  switch (mechanism.name) {
    case 'ip4':
    case 'ip6': {
      if (!network) return [];
      const single = network.version === 4 ? mechanism.cidr4 === 32 : mechanism.cidr6 === 128;
      return single ? [{ ip: readableIp(network), source: `SPF ${mechanism.name}` }] : [];
    }
    case 'a': {
      const target = targetOf(mechanism.domainSpec, domain);
      if (target === null) return [];
      const source = mechanism.domainSpec ? `SPF a:${target}` : 'SPF a';
      return (await hostAddresses(resolver, target, domain, errors)).map((ip) => ({ ip, source }));
    }
    case 'mx': {
      const target = targetOf(mechanism.domainSpec, domain);
      if (target === null) return [];
      return mxAddresses(resolver, target, domain, mechanism.domainSpec ? `SPF mx:${target}` : 'SPF mx', errors);
    }
    default:
      return [];
  }
}

/** The mechanism's target: the domain itself, or a literal domain-spec (one with macros is skipped). */
function targetOf(spec: MacroString | null, domain: string): string | null {
  if (spec === null) return domain;
  if (!spec.parts.every((part) => typeof part === 'string')) return null;
  const name = normaliseHostName(spec.parts.join(''));
  return name === '' ? null : name;
}

async function hostAddresses(resolver: Resolver, host: string, domain: string, errors: string[]): Promise<string[]> {
  const [v4, v6] = await Promise.all([lookup(resolver, host, 'A', domain, errors), lookup(resolver, host, 'AAAA', domain, errors)]);
  return [...v4, ...v6];
}

async function lookup<T extends 'A' | 'AAAA' | 'MX'>(resolver: Resolver, name: string, type: T, domain: string, errors: string[]) {
  try {
    return await resolver.lookup(name, type, { shared: isOutsideDomain(name, domain) });
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) {
      errors.push(error.message);
      return [];
    }
    throw error;
  }
}
