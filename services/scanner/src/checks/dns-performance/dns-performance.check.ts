import type { DnsDetails, Finding } from '@sendwell/contracts';
import type { Resolver } from '../../dns/types.js';
import type { Check, CheckResult } from '../types.js';
import { nameserverFindings } from './findings.js';
import { isDnsFailure, probeNameservers } from './nameservers.js';
import { tallyNameservers } from './tally.js';
import { EXCELLENT_MAX_MS, FAIR_MAX_MS } from './thresholds.js';
import { dnsPerformanceVerdict } from './verdict.js';

/**
 * DNS performance check: asks each of the domain's name servers directly (no recursion) for the SOA,
 * timing the answer and checking that it is authoritative and that the servers agree on the serial.
 */
export const dnsPerformanceCheck: Check<'dns_performance'> = async ({ domain, resolver, config }): Promise<CheckResult<DnsDetails>> => {
  let nsNames: string[];
  try {
    nsNames = [...new Set(await resolver.lookup(domain, 'NS'))].sort();
  } catch (error) {
    if (!isDnsFailure(error)) throw error;
    return nameserverLookupFailed(error.message);
  }
  const records = await shownRecords(resolver, domain);
  if (nsNames.length === 0) return noNameservers(domain, records);

  const nameservers = await probeNameservers(resolver, domain, nsNames, config);
  const tally = tallyNameservers(nameservers);
  const findings = nameserverFindings(domain, nsNames, nameservers, tally);
  return dnsPerformanceVerdict(domain, tally, {
    ...records,
    nameservers: nameservers.map(({ addresses, ...rest }) => ({ ...rest, addresses })),
    ...(tally.averageResponseTimeMs !== null ? { averageResponseTimeMs: tally.averageResponseTimeMs } : {}),
    ...(tally.slowest !== null ? { responseTimeMs: tally.slowest } : {}),
    soaSerials: tally.soaSerials,
    thresholdsMs: { excellent: EXCELLENT_MAX_MS, fair: FAIR_MAX_MS },
    findings,
  });
};

type ShownRecords = Pick<DnsDetails, 'aRecords' | 'mxRecords'>;

/** The A and MX records the detail page shows: already asked by other checks, so cache hits. */
async function shownRecords(resolver: Resolver, domain: string): Promise<ShownRecords> {
  const [aRecords, mxRecords] = await Promise.all([
    resolver.lookup(domain, 'A').catch(() => [] as string[]),
    resolver.lookup(domain, 'MX').catch(() => [] as Array<{ exchange: string; priority: number }>),
  ]);
  return { aRecords, mxRecords: mxRecords.map((mx) => ({ exchange: mx.exchange, priority: mx.priority })) };
}

function nameserverLookupFailed(error: string): CheckResult<DnsDetails> {
  return {
    type: 'dns_performance',
    status: 'unknown',
    value: null,
    message: 'The name servers of the domain could not be looked up.',
    recommendation: null,
    details: { nameservers: [], error, findings: [] },
  };
}

function noNameservers(domain: string, records: ShownRecords): CheckResult<DnsDetails> {
  const findings: Finding[] = [
    {
      code: 'DNS_NO_NS',
      severity: 'error',
      message: `${domain} has no NS records.`,
      rfc: 'RFC 1034 §4.1',
      recommendation: 'Delegate the domain to at least two name servers at your registrar.',
    },
  ];
  return {
    type: 'dns_performance',
    status: 'missing',
    value: null,
    message: `${domain} has no name servers.`,
    recommendation: 'Delegate the domain to at least two name servers at your registrar.',
    details: { ...records, nameservers: [], findings },
  };
}
