import { isIP } from 'node:net';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { lookupAddresses, refusedName, vetAddresses, type RefusedTarget } from '../outbound-targets.js';
import type { ScanConfig } from '../types.js';
import { measureTiming, timingGate } from '../../timing/timing-gate.js';
import type { TimingPolicy } from '../../timing/reliability.js';
import { EXCELLENT_MAX_MS, FAIR_MAX_MS, TIMING_MAX_LAG_MS, TIMING_NOISE_MS } from './thresholds.js';

/** Bounds per scan: name servers asked, and addresses asked per name server. */
const MAX_NAMESERVERS = 8;
const MAX_ADDRESSES_PER_NS = 2;

/** Grades of the SOA time, which the scanner's own lag must not be able to change (src/timing/reliability.ts). */
const TIMING_POLICY: TimingPolicy = { edgesMs: [EXCELLENT_MAX_MS, FAIR_MAX_MS], noiseMs: TIMING_NOISE_MS, maxLagMs: TIMING_MAX_LAG_MS };

/** An answer whose time the scanner's own stall could explain at every attempt: shown, never graded. */
export interface UnreliableTiming {
  /** What was measured, lag included. */
  measuredMs: number;
  /** The scanner's event-loop lag while it waited for the answer. */
  lagMs: number;
}

export interface AddressResult {
  ip: string;
  /** null without an answer, or when its time was unreliable (then `unreliableTiming`). */
  responseTimeMs: number | null;
  unreliableTiming: UnreliableTiming | null;
  /** null without an answer (timeout). */
  rcode: string | null;
  authoritative: boolean;
  serial: number | null;
  error: string | null;
}

export interface NameserverResult {
  name: string;
  ips: string[];
  /** The answer's time; null without one, or when it was unreliable (then `unreliableTiming`). */
  responseTimeMs: number | null;
  unreliableTiming: UnreliableTiming | null;
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
  const unanswered = { responseTimeMs: null, unreliableTiming: null, authoritative: false, serial: null, addresses: [] };
  const badName = refusedName(name);
  if (badName) return { name, ips: [], ...unanswered, error: null, refused: [badName] };
  // A hosting provider's name servers serve thousands of scanned domains: their addresses are shared.
  const { addresses: ips, error } = await lookupAddresses(resolver, name, { shared: isOutsideDomain(name, domain) });
  if (ips.length === 0) {
    return { name, ips, ...unanswered, error: error ?? 'the name server name has no A or AAAA record', refused: [] };
  }
  // Only vetted addresses are queried, and by IP: the name is never resolved again.
  const { allowed, refused } = vetAddresses(ips, config.outbound);
  if (allowed.length === 0) return { name, ips, ...unanswered, error: null, refused };
  const addresses = await Promise.all(preferredAddresses(allowed).map((ip) => askSoa(resolver, domain, ip, config.authoritativeDnsPort)));
  return { name, ips, ...summariseAddresses(addresses), addresses, refused };
}

/** A name server's figures from its addresses' answers: the best answer's time (a reliable one first), authoritative if any address is. */
function summariseAddresses(addresses: AddressResult[]): Pick<NameserverResult, 'responseTimeMs' | 'unreliableTiming' | 'authoritative' | 'serial' | 'error'> {
  const good = addresses.filter((address) => address.authoritative);
  const answered = addresses.filter((address) => address.rcode !== null);
  const best = good.find((address) => address.responseTimeMs !== null) ?? good[0] ?? answered[0] ?? addresses[0];
  return {
    responseTimeMs: best?.responseTimeMs ?? null,
    unreliableTiming: best?.unreliableTiming ?? null,
    authoritative: good.length > 0,
    serial: good[0]?.serial ?? null,
    error: good.length === addresses.length ? null : addresses.filter((a) => a.error).map((a) => `${a.ip}: ${a.error}`).join('; '),
  };
}

/**
 * The SOA asked of one address as a timing probe: through the process-wide timing gate, on the timing
 * socket, timed at the socket, and judged against the scanner's own event-loop lag meanwhile (measured
 * again, up to four attempts, while the lag could explain the time; src/timing/).
 */
async function askSoa(resolver: Resolver, domain: string, ip: string, port: number): Promise<AddressResult> {
  try {
    const measured = await measureTiming(
      timingGate(),
      async () => {
        const response = await resolver.query(domain, 'SOA', { server: { host: ip, port }, recurse: false, timing: true });
        const span = response.timing ? { start: response.timing.sentAt, end: response.timing.receivedAt } : undefined;
        return { result: response, timeMs: response.timeMs, span };
      },
      TIMING_POLICY,
    );
    const response = measured.result;
    const soa = response.answers[0];
    const authoritative = response.rcode === 'NOERROR' && response.authoritative && soa !== undefined;
    return {
      ip,
      responseTimeMs: measured.timeMs === null ? null : tenths(measured.timeMs),
      unreliableTiming: measured.reliable ? null : { measuredMs: tenths(measured.measuredMs ?? 0), lagMs: Math.round(measured.lagMs) },
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
    if (error instanceof DnsTimeoutError) return { ip, responseTimeMs: null, unreliableTiming: null, rcode: null, authoritative: false, serial: null, error: 'no answer (timeout)' };
    throw error;
  }
}

function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** IPv4 addresses first: the scanner may have no IPv6 route, and v4 answers are comparable. */
function preferredAddresses(ips: readonly string[]): string[] {
  const v4 = ips.filter((ip) => isIP(ip) === 4);
  const v6 = ips.filter((ip) => isIP(ip) === 6);
  return [...v4, ...v6].slice(0, MAX_ADDRESSES_PER_NS);
}
