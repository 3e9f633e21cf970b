import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../dns/types.js';
import type { Check, CheckResult } from './types.js';

/**
 * DNS performance check: asks each of the domain's name servers directly (no recursion) for the SOA,
 * timing the answer and checking that it is authoritative and that the servers agree on the serial.
 */

/** Slowest authoritative answer up to this is Excellent (`success`). */
export const EXCELLENT_MAX_MS = 100;
/** Slowest answer up to this is Fair (`warning`); above it, Poor (`error`). */
export const FAIR_MAX_MS = 300;
/** Bounds per scan: name servers asked, and addresses asked per name server. */
const MAX_NAMESERVERS = 8;
const MAX_ADDRESSES_PER_NS = 2;

interface AddressResult {
  ip: string;
  responseTimeMs: number | null;
  rcode: string | null;
  authoritative: boolean;
  serial: number | null;
  error: string | null;
}

interface NameserverResult {
  name: string;
  ips: string[];
  responseTimeMs: number | null;
  authoritative: boolean;
  serial: number | null;
  error: string | null;
  addresses: AddressResult[];
}

function isDnsFailure(error: unknown): error is DnsTimeoutError | DnsServerError {
  return error instanceof DnsTimeoutError || error instanceof DnsServerError;
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

export const dnsPerformanceCheck: Check = async (ctx): Promise<CheckResult> => {
  const { domain, resolver, config } = ctx;
  const findings: Finding[] = [];

  let nsNames: string[];
  try {
    nsNames = [...new Set(await resolver.lookup(domain, 'NS'))].sort();
  } catch (error) {
    if (!isDnsFailure(error)) throw error;
    return {
      type: 'dns_performance',
      status: 'unknown',
      value: null,
      message: 'The name servers of the domain could not be looked up.',
      recommendation: null,
      details: { nameservers: [], error: error.message, findings },
    };
  }

  // The A and MX records the detail page shows: already asked by other checks, so cache hits.
  const [aRecords, mxRecords] = await Promise.all([
    resolver.lookup(domain, 'A').catch(() => [] as string[]),
    resolver.lookup(domain, 'MX').catch(() => [] as Array<{ exchange: string; priority: number }>),
  ]);
  const records = { aRecords, mxRecords: mxRecords.map((mx) => ({ exchange: mx.exchange, priority: mx.priority })) };

  if (nsNames.length === 0) {
    findings.push({
      code: 'DNS_NO_NS',
      severity: 'error',
      message: `${domain} has no NS records.`,
      rfc: 'RFC 1034 §4.1',
      recommendation: 'Delegate the domain to at least two name servers at your registrar.',
    });
    return {
      type: 'dns_performance',
      status: 'missing',
      value: null,
      message: `${domain} has no name servers.`,
      recommendation: 'Delegate the domain to at least two name servers at your registrar.',
      details: { ...records, nameservers: [], findings },
    };
  }

  const port = config.authoritativeDnsPort;
  const nameservers: NameserverResult[] = await Promise.all(
    nsNames.slice(0, MAX_NAMESERVERS).map(async (name): Promise<NameserverResult> => {
      const { ips, error } = await addressesOf(resolver, name);
      if (ips.length === 0) {
        return { name, ips, responseTimeMs: null, authoritative: false, serial: null, error: error ?? 'the name server name has no A or AAAA record', addresses: [] };
      }
      const addresses = await Promise.all(preferredAddresses(ips).map((ip) => askSoa(resolver, domain, ip, port)));
      const good = addresses.filter((address) => address.authoritative);
      const answered = addresses.filter((address) => address.responseTimeMs !== null);
      const best = good[0] ?? answered[0] ?? addresses[0];
      return {
        name,
        ips,
        responseTimeMs: best?.responseTimeMs ?? null,
        authoritative: good.length > 0,
        serial: good[0]?.serial ?? null,
        error: good.length === addresses.length ? null : addresses.filter((a) => a.error).map((a) => `${a.ip}: ${a.error}`).join('; '),
        addresses,
      };
    }),
  );

  const unresolved = nameservers.filter((ns) => ns.ips.length === 0);
  const unreachable = nameservers.filter((ns) => ns.ips.length > 0 && ns.addresses.every((a) => a.responseTimeMs === null));
  const lame = nameservers.filter((ns) => ns.addresses.some((a) => a.responseTimeMs !== null) && !ns.authoritative);
  const partlyUnreachable = nameservers.filter((ns) => ns.authoritative && ns.addresses.some((a) => a.responseTimeMs === null));
  const answering = nameservers.filter((ns) => ns.authoritative && ns.responseTimeMs !== null);
  const times = answering.map((ns) => ns.responseTimeMs as number);
  const averageResponseTimeMs = times.length > 0 ? Math.round(times.reduce((sum, t) => sum + t, 0) / times.length) : null;
  const slowest = times.length > 0 ? Math.round(Math.max(...times)) : null;
  const soaSerials: Record<string, number> = {};
  for (const ns of answering) if (ns.serial !== null) soaSerials[ns.name] = ns.serial;
  const distinctSerials = [...new Set(Object.values(soaSerials))];

  if (nsNames.length < 2) {
    findings.push({
      code: 'DNS_TOO_FEW_NS',
      severity: 'warning',
      message: `${domain} has only one name server (${nsNames[0]}); if it fails, the domain and its mail stop resolving.`,
      rfc: 'RFC 1034 §4.1; RFC 2182 §5',
      recommendation: 'Add at least one more name server, preferably on a different network.',
    });
  }
  for (const ns of unresolved) {
    findings.push({
      code: 'DNS_NS_NO_ADDRESS',
      severity: 'warning',
      message: `Name server ${ns.name} has no address (${ns.error}).`,
      rfc: 'RFC 1034 §4.2.2',
      recommendation: `Fix or remove the NS record for ${ns.name}.`,
      nameserver: ns.name,
    });
  }
  for (const ns of unreachable) {
    findings.push({
      code: 'DNS_NS_UNREACHABLE',
      severity: 'warning',
      message: `Name server ${ns.name} (${ns.ips.join(', ')}) did not answer.`,
      rfc: 'RFC 2182 §3',
      recommendation: `Make ${ns.name} answer on UDP and TCP port 53, or remove it from the delegation.`,
      nameserver: ns.name,
    });
  }
  for (const ns of partlyUnreachable) {
    findings.push({
      code: 'DNS_NS_UNREACHABLE',
      severity: 'info',
      message: `Name server ${ns.name} did not answer on some of its addresses (${ns.error}).`,
      rfc: 'RFC 2182 §3',
      recommendation: `Make every address of ${ns.name} answer, or remove the unreachable address records.`,
      nameserver: ns.name,
    });
  }
  for (const ns of lame) {
    findings.push({
      code: 'DNS_LAME_SERVER',
      severity: 'warning',
      message: `Name server ${ns.name} is lame for ${domain}: it ${ns.error?.replace(/^[^:]+: /, '') ?? 'does not answer authoritatively'}.`,
      rfc: 'RFC 1912 §2.8',
      recommendation: `Configure ${ns.name} to serve the ${domain} zone, or remove it from the delegation.`,
      nameserver: ns.name,
    });
  }
  if (distinctSerials.length > 1) {
    findings.push({
      code: 'DNS_SOA_SERIAL_MISMATCH',
      severity: 'warning',
      message: `The name servers disagree on the SOA serial (${Object.entries(soaSerials).map(([name, serial]) => `${name}: ${serial}`).join(', ')}): some serve an old copy of the zone.`,
      rfc: 'RFC 1996 §2; RFC 1034 §4.3.5',
      recommendation: 'Check zone transfers (NOTIFY, AXFR/IXFR) from the primary to every secondary.',
    });
  }
  const v4Prefixes = new Set(
    nameservers.flatMap((ns) => ns.ips.filter((ip) => isIP(ip) === 4).map((ip) => ip.split('.').slice(0, 3).join('.'))),
  );
  if (nameservers.length >= 2 && v4Prefixes.size === 1) {
    findings.push({
      code: 'DNS_NS_SAME_SUBNET',
      severity: 'info',
      message: `All name servers are in one /24 network (${[...v4Prefixes][0]}.0/24), so one network failure takes them all down.`,
      rfc: 'RFC 2182 §3.1',
      recommendation: 'Host at least one name server on a different network.',
    });
  }
  if (slowest !== null && slowest > EXCELLENT_MAX_MS) {
    findings.push({
      code: 'DNS_SLOW_RESPONSE',
      severity: slowest > FAIR_MAX_MS ? 'error' : 'warning',
      message: `The slowest name server took ${slowest} ms to answer (Excellent ≤ ${EXCELLENT_MAX_MS} ms, Fair ≤ ${FAIR_MAX_MS} ms).`,
      rfc: 'RFC 2182 §3',
      recommendation: 'Use a faster or anycast DNS provider, or remove the slow name server.',
    });
  }

  const details = {
    ...records,
    nameservers: nameservers.map(({ addresses, ...rest }) => ({ ...rest, addresses })),
    ...(averageResponseTimeMs !== null ? { averageResponseTimeMs } : {}),
    ...(slowest !== null ? { responseTimeMs: slowest } : {}),
    soaSerials,
    thresholdsMs: { excellent: EXCELLENT_MAX_MS, fair: FAIR_MAX_MS },
    findings,
  };

  if (answering.length === 0) {
    const allTimedOut = lame.length === 0;
    if (allTimedOut) {
      // Every server silent: as likely the scanner's network as the domain's, so no grade.
      return {
        type: 'dns_performance',
        status: 'unknown',
        value: null,
        message: 'None of the name servers answered, so DNS performance could not be measured.',
        recommendation: 'Make sure the name servers answer queries on port 53 (UDP and TCP).',
        details,
      };
    }
    return {
      type: 'dns_performance',
      status: 'error',
      value: null,
      message: 'No name server answers authoritatively for the domain (lame delegation).',
      recommendation: `Configure the name servers to serve the ${domain} zone, or fix the delegation at your registrar.`,
      details: { ...details, findings: findings.map((f) => (f.code === 'DNS_LAME_SERVER' ? { ...f, severity: 'error' as const } : f)) },
    };
  }

  const worst = findings.some((f) => f.severity === 'error') ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warning' : 'success';
  const top = findings.find((f) => f.severity === 'error') ?? findings.find((f) => f.severity === 'warning');
  const label = worst === 'success' ? 'Excellent' : worst === 'warning' ? 'Fair' : 'Poor';
  return {
    type: 'dns_performance',
    status: worst,
    value: `${slowest} ms`,
    message: top
      ? `${label}: ${top.message}`
      : `${label}: ${answering.length} name server${answering.length === 1 ? '' : 's'} answered authoritatively, slowest in ${slowest} ms.`,
    recommendation: top?.recommendation ?? null,
    details,
  };
};
