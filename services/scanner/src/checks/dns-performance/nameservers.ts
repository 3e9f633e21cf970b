import { isIP } from 'node:net';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { refusedName, vetAddresses, type RefusedTarget } from '../outbound-targets.js';
import type { ScanConfig } from '../types.js';

/** Bounds per scan: name servers asked, and addresses asked per name server. */
const MAX_NAMESERVERS = 8;
const MAX_ADDRESSES_PER_NS = 2;

export interface AddressResult {
  ip: string;
  responseTimeMs: number | null;
  rcode: string | null;
  authoritative: boolean;
  serial: number | null;
  error: string | null;
}

export interface NameserverResult {
  name: string;
  ips: string[];
  responseTimeMs: number | null;
  authoritative: boolean;
  serial: number | null;
  error: string | null;
  addresses: AddressResult[];
  /** Addresses (or the name itself) the outbound guard refused: never queried. */
  refused: RefusedTarget[];
}

export function isDnsFailure(error: unknown): error is DnsTimeoutError | DnsServerError {
  return error instanceof DnsTimeoutError || error instanceof DnsServerError;
}

/** Each of the first MAX_NAMESERVERS name servers asked directly for the domain's SOA. */
export function probeNameservers(resolver: Resolver, domain: string, nsNames: readonly string[], config: ScanConfig): Promise<NameserverResult[]> {
  return Promise.all(nsNames.slice(0, MAX_NAMESERVERS).map((name) => probeNameserver(resolver, domain, name, config)));
}

async function probeNameserver(resolver: Resolver, domain: string, name: string, config: ScanConfig): Promise<NameserverResult> {
  const unanswered = { responseTimeMs: null, authoritative: false, serial: null, addresses: [] };
  const badName = refusedName(name);
  if (badName) return { name, ips: [], ...unanswered, error: null, refused: [badName] };
  const { ips, error } = await addressesOf(resolver, name);
  if (ips.length === 0) {
    return { name, ips, ...unanswered, error: error ?? 'the name server name has no A or AAAA record', refused: [] };
  }
  // Only vetted addresses are queried, and by IP: the name is never resolved again.
  const { allowed, refused } = vetAddresses(ips, config.outbound);
  if (allowed.length === 0) return { name, ips, ...unanswered, error: null, refused };
  const addresses = await Promise.all(preferredAddresses(allowed).map((ip) => askSoa(resolver, domain, ip, config.authoritativeDnsPort)));
  return { name, ips, ...summariseAddresses(addresses), addresses, refused };
}

/** A name server's figures from its addresses' answers: the best answer's time, authoritative if any address is. */
function summariseAddresses(addresses: AddressResult[]): Pick<NameserverResult, 'responseTimeMs' | 'authoritative' | 'serial' | 'error'> {
  const good = addresses.filter((address) => address.authoritative);
  const answered = addresses.filter((address) => address.responseTimeMs !== null);
  const best = good[0] ?? answered[0] ?? addresses[0];
  return {
    responseTimeMs: best?.responseTimeMs ?? null,
    authoritative: good.length > 0,
    serial: good[0]?.serial ?? null,
    error: good.length === addresses.length ? null : addresses.filter((a) => a.error).map((a) => `${a.ip}: ${a.error}`).join('; '),
  };
}

async function addressesOf(resolver: Resolver, host: string): Promise<{ ips: string[]; error: string | null }> {
  const results = await Promise.all(
    (['A', 'AAAA'] as const).map(async (type) => {
      try {
        return { ips: await resolver.lookup(host, type), error: null };
      } catch (error) {
        if (isDnsFailure(error)) return { ips: [] as string[], error: error.message };
        throw error;
      }
    }),
  );
  return { ips: results.flatMap((result) => result.ips), error: results.find((r) => r.error)?.error ?? null };
}

async function askSoa(resolver: Resolver, domain: string, ip: string, port: number): Promise<AddressResult> {
  try {
    const response = await resolver.query(domain, 'SOA', { server: { host: ip, port }, recurse: false });
    const soa = response.answers[0];
    const authoritative = response.rcode === 'NOERROR' && response.authoritative && soa !== undefined;
    return {
      ip,
      responseTimeMs: Math.round(response.timeMs * 10) / 10,
      rcode: response.rcode,
      authoritative,
      serial: soa?.serial ?? null,
      error: authoritative
        ? null
        : response.rcode !== 'NOERROR'
          ? `answered ${response.rcode}`
          : !response.authoritative
            ? 'answered without the authoritative (AA) flag'
            : 'answered with no SOA record',
    };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { ip, responseTimeMs: null, rcode: null, authoritative: false, serial: null, error: 'no answer (timeout)' };
    throw error;
  }
}

/** IPv4 addresses first: the scanner may have no IPv6 route, and v4 answers are comparable. */
function preferredAddresses(ips: readonly string[]): string[] {
  const v4 = ips.filter((ip) => isIP(ip) === 4);
  const v6 = ips.filter((ip) => isIP(ip) === 6);
  return [...v4, ...v6].slice(0, MAX_ADDRESSES_PER_NS);
}
