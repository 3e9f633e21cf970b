import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import { describeRefused } from '../outbound-targets.js';
import type { NameserverResult } from './nameservers.js';
import type { NameserverTally } from './tally.js';
import { EXCELLENT_MAX_MS, FAIR_MAX_MS } from './thresholds.js';

/** Delegation first, then each kind of failing name server, then the zone's consistency, network spread and speed, and speed not measured. */
export function nameserverFindings(domain: string, nsNames: readonly string[], nameservers: readonly NameserverResult[], tally: NameserverTally): Finding[] {
  return [
    ...tooFewFindings(domain, nsNames),
    ...failingNameserverFindings(domain, tally),
    ...serialFindings(tally.soaSerials),
    ...subnetFindings(nameservers),
    ...speedFindings(tally.slowest),
    ...timingFindings(tally.untimed),
  ];
}

function tooFewFindings(domain: string, nsNames: readonly string[]): Finding[] {
  if (nsNames.length >= 2) return [];
  return [
    {
      code: 'DNS_TOO_FEW_NS',
      severity: 'warning',
      message: `${domain} has only one name server (${nsNames[0]}); if it fails, the domain and its mail stop resolving.`,
      rfc: 'RFC 1034 §4.1; RFC 2182 §5',
      recommendation: 'Add at least one more name server, preferably on a different network.',
    },
  ];
}

function failingNameserverFindings(domain: string, tally: NameserverTally): Finding[] {
  return [
    ...tally.unresolved.map((ns) => ({
      code: 'DNS_NS_NO_ADDRESS',
      severity: 'warning' as const,
      message: `Name server ${ns.name} has no address (${ns.error}).`,
      rfc: 'RFC 1034 §4.2.2',
      recommendation: `Fix or remove the NS record for ${ns.name}.`,
      nameserver: ns.name,
    })),
    ...tally.refusedNs.map((ns) => ({
      code: 'DNS_NS_PRIVATE_ADDRESS',
      severity: 'warning' as const,
      message: `Name server ${ns.name} points at ${describeRefused(ns.refused)}, which the scanner does not query.`,
      rfc: 'RFC 6890; RFC 1034 §4.2.2',
      recommendation: `Give ${ns.name} only public addresses, or remove it from the delegation: resolvers on the internet cannot reach a private address.`,
      nameserver: ns.name,
    })),
    ...tally.unreachable.map((ns) => ({
      code: 'DNS_NS_UNREACHABLE',
      severity: 'warning' as const,
      message: `Name server ${ns.name} (${ns.ips.join(', ')}) did not answer.`,
      rfc: 'RFC 2182 §3',
      recommendation: `Make ${ns.name} answer on UDP and TCP port 53, or remove it from the delegation.`,
      nameserver: ns.name,
    })),
    ...tally.partlyUnreachable.map((ns) => ({
      code: 'DNS_NS_UNREACHABLE',
      severity: 'info' as const,
      message: `Name server ${ns.name} did not answer on some of its addresses (${ns.error}).`,
      rfc: 'RFC 2182 §3',
      recommendation: `Make every address of ${ns.name} answer, or remove the unreachable address records.`,
      nameserver: ns.name,
    })),
    ...tally.lame.map((ns) => ({
      code: 'DNS_LAME_SERVER',
      severity: 'warning' as const,
      message: `Name server ${ns.name} is lame for ${domain}: it ${ns.error?.replace(/^[^:]+: /, '') ?? 'does not answer authoritatively'}.`,
      rfc: 'RFC 1912 §2.8',
      recommendation: `Configure ${ns.name} to serve the ${domain} zone, or remove it from the delegation.`,
      nameserver: ns.name,
    })),
  ];
}

function serialFindings(soaSerials: Record<string, number>): Finding[] {
  if (new Set(Object.values(soaSerials)).size <= 1) return [];
  return [
    {
      code: 'DNS_SOA_SERIAL_MISMATCH',
      severity: 'warning',
      message: `The name servers disagree on the SOA serial (${Object.entries(soaSerials).map(([name, serial]) => `${name}: ${serial}`).join(', ')}): some serve an old copy of the zone.`,
      rfc: 'RFC 1996 §2; RFC 1034 §4.3.5',
      recommendation: 'Check zone transfers (NOTIFY, AXFR/IXFR) from the primary to every secondary.',
    },
  ];
}

function subnetFindings(nameservers: readonly NameserverResult[]): Finding[] {
  const v4Prefixes = new Set(
    nameservers.flatMap((ns) => ns.ips.filter((ip) => isIP(ip) === 4).map((ip) => ip.split('.').slice(0, 3).join('.'))),
  );
  if (nameservers.length < 2 || v4Prefixes.size !== 1) return [];
  return [
    {
      code: 'DNS_NS_SAME_SUBNET',
      severity: 'info',
      message: `All name servers are in one /24 network (${[...v4Prefixes][0]}.0/24), so one network failure takes them all down.`,
      rfc: 'RFC 2182 §3.1',
      recommendation: 'Host at least one name server on a different network.',
    },
  ];
}

function speedFindings(slowest: number | null): Finding[] {
  if (slowest === null || slowest <= EXCELLENT_MAX_MS) return [];
  return [
    {
      code: 'DNS_SLOW_RESPONSE',
      severity: slowest > FAIR_MAX_MS ? 'error' : 'warning',
      message: `The slowest name server took ${slowest} ms to answer (Excellent ≤ ${EXCELLENT_MAX_MS} ms, Fair ≤ ${FAIR_MAX_MS} ms).`,
      rfc: 'RFC 2182 §3',
      recommendation: 'Use a faster or anycast DNS provider, or remove the slow name server.',
    },
  ];
}

/** Answers the scanner could not time reliably (its own event loop was stalled meanwhile, at every attempt): never graded. */
function timingFindings(untimed: readonly NameserverResult[]): Finding[] {
  return untimed.map((ns) => ({
    code: 'DNS_TIMING_UNRELIABLE',
    severity: 'info' as const,
    message:
      `Name server ${ns.name} answered, but the scanner was too busy to time this answer` +
      (ns.unreliableTiming ? ` (${ns.unreliableTiming.measuredMs} ms measured while the scanner itself lagged ${ns.unreliableTiming.lagMs} ms)` : '') +
      '; it is not held against the domain.',
    nameserver: ns.name,
  }));
}
