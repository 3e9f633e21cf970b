import type { NameserverResult } from './nameservers.js';

/** The name servers sorted by how they answered, and the figures graded on. */
export interface NameserverTally {
  refusedNs: NameserverResult[];
  unresolved: NameserverResult[];
  unreachable: NameserverResult[];
  lame: NameserverResult[];
  partlyUnreachable: NameserverResult[];
  /** Answered authoritatively. */
  answering: NameserverResult[];
  /** Answered authoritatively with a reliable time: the ones graded on speed. */
  timed: NameserverResult[];
  /** Answered authoritatively, but the scanner was too busy to time the answer (src/timing/). */
  untimed: NameserverResult[];
  averageResponseTimeMs: number | null;
  slowest: number | null;
  soaSerials: Record<string, number>;
}

export function tallyNameservers(nameservers: readonly NameserverResult[]): NameserverTally {
  const answering = nameservers.filter((ns) => ns.authoritative);
  const timed = answering.filter((ns) => ns.responseTimeMs !== null);
  const times = timed.map((ns) => ns.responseTimeMs as number);
  const soaSerials: Record<string, number> = {};
  for (const ns of answering) if (ns.serial !== null) soaSerials[ns.name] = ns.serial;
  return {
    refusedNs: nameservers.filter((ns) => ns.refused.length > 0),
    unresolved: nameservers.filter((ns) => ns.ips.length === 0 && ns.refused.length === 0),
    // An address answered when it sent any reply (rcode), timed reliably or not.
    unreachable: nameservers.filter((ns) => ns.addresses.length > 0 && ns.addresses.every((a) => a.rcode === null)),
    lame: nameservers.filter((ns) => ns.addresses.some((a) => a.rcode !== null) && !ns.authoritative),
    partlyUnreachable: nameservers.filter((ns) => ns.authoritative && ns.addresses.some((a) => a.rcode === null)),
    answering,
    timed,
    untimed: answering.filter((ns) => ns.responseTimeMs === null),
    averageResponseTimeMs: times.length > 0 ? Math.round(times.reduce((sum, t) => sum + t, 0) / times.length) : null,
    slowest: times.length > 0 ? Math.round(Math.max(...times)) : null,
    soaSerials,
  };
}
