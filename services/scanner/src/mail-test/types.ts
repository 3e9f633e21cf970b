import type { MailTestFinding } from '@sendwell/contracts';
import type { DnsblZone } from '../checks/blacklist/zones.js';
import type { BlocklistHealthView } from '../checks/types.js';
import type { Resolver } from '../dns/types.js';

/** What reading a test message needs from the scanner: its DNS (DNS_SERVERS) and its block lists. */
export interface MailTestAnalysisDeps {
  /** A resolver for this one analysis (its cache lives as long as the analysis). */
  resolver: Resolver;
  /** The IP and domain lists the blacklist check queries, and which of them are degraded (skipped). */
  blocklists: { zones: readonly DnsblZone[]; health: BlocklistHealthView };
  now: Date;
}

/** One part of the analysis (connection, authentication, headers, content) and what it found. */
export interface AnalysisPart<T> {
  value: T;
  findings: MailTestFinding[];
}
