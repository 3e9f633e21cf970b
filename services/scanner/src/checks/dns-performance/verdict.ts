import type { DnsDetails } from '@sendwell/contracts';
import type { CheckResult } from '../types.js';
import type { NameserverTally } from './tally.js';

type DnsPerformanceResult = CheckResult<DnsDetails>;

/**
 * Graded on the slowest reliably timed authoritative answer and the worst finding; no grade when no
 * server answered authoritatively, nor on speed when no answer could be timed reliably.
 */
export function dnsPerformanceVerdict(domain: string, tally: NameserverTally, details: DnsPerformanceResult['details']): DnsPerformanceResult {
  return tally.answering.length === 0 ? unansweredVerdict(domain, tally, details) : gradedVerdict(tally, details);
}

function unansweredVerdict(domain: string, tally: NameserverTally, details: DnsPerformanceResult['details']): DnsPerformanceResult {
  const { findings } = details;
  const privateFinding = findings.find((finding) => finding.code === 'DNS_NS_PRIVATE_ADDRESS');
  if (privateFinding && tally.lame.length === 0 && tally.unreachable.length === 0) {
    // Only private name servers (and perhaps ones without an address): none the internet can ask.
    return {
      type: 'dns_performance',
      status: 'error',
      value: null,
      message: privateFinding.message,
      recommendation: privateFinding.recommendation ?? null,
      details,
    };
  }
  const allTimedOut = tally.lame.length === 0;
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

function gradedVerdict(tally: NameserverTally, details: DnsPerformanceResult['details']): DnsPerformanceResult {
  const { findings } = details;
  const { answering, slowest } = tally;
  if (slowest === null) return untimedVerdict(tally, details);
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
}

/**
 * Every authoritative answer came while the scanner itself was too busy to time it: the speed is
 * unknown, while the rest (delegation, lame or unreachable servers, serials) stands as found.
 */
function untimedVerdict(tally: NameserverTally, details: DnsPerformanceResult['details']): DnsPerformanceResult {
  const { findings } = details;
  const top = findings.find((f) => f.severity === 'error') ?? findings.find((f) => f.severity === 'warning');
  if (top) {
    const status = top.severity === 'error' ? 'error' : 'warning';
    return {
      type: 'dns_performance',
      status,
      value: null,
      message: `${status === 'error' ? 'Poor' : 'Fair'}: ${top.message}`,
      recommendation: top.recommendation ?? null,
      details,
    };
  }
  const count = tally.answering.length;
  return {
    type: 'dns_performance',
    status: 'unknown',
    value: null,
    message: `${count} name server${count === 1 ? '' : 's'} answered authoritatively, but the scanner was too busy to time ${count === 1 ? 'the answer' : 'the answers'}: the speed is not graded this time.`,
    recommendation: null,
    details,
  };
}
