import type { DnsRecords, DomainCheck } from '@sendwell/contracts';
import { toIsoOrNull } from './time.js';

/** What this service reads of the scanner's `scans.dns_snapshot` (services/scanner/src/scan/dns-snapshot.ts). */
interface SnapshotShape {
  a?: unknown;
  mx?: unknown;
  spfRecord?: unknown;
  dmarcRecord?: unknown;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function mxList(value: unknown): DnsRecords['mxRecords'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((mx: unknown) => {
    const m = mx as { exchange?: unknown; priority?: unknown; ips?: unknown };
    if (typeof m?.exchange !== 'string' || typeof m.priority !== 'number' || !Number.isInteger(m.priority) || m.priority < 0) return [];
    return [{ exchange: m.exchange, priority: m.priority, ips: strings(m.ips) }];
  });
}

/** The addresses SPF authorises, flattened by the SPF check (`details.flattenedIps[].ip`), without repeats. */
function spfIps(spf: DomainCheck | undefined): string[] {
  const flattened = (spf?.details as { flattenedIps?: unknown } | undefined)?.flattenedIps;
  if (!Array.isArray(flattened)) return [];
  const ips = flattened.map((f: unknown) => (f as { ip?: unknown })?.ip).filter((ip): ip is string => typeof ip === 'string');
  return [...new Set(ips)];
}

export const emptyDnsRecords: DnsRecords = { aRecords: [], mxRecords: [], spfRecord: null, spfIps: [], dmarcRecord: null, checkedAt: null };

/**
 * The detail page's DNS section from the latest completed scan: its DNS snapshot first; for a scan
 * without one, what the checks' own details recorded.
 */
export function toDnsRecords(scan: { completedAt: Date | null; createdAt: Date; dnsSnapshot: unknown } | undefined, checks: readonly DomainCheck[]): DnsRecords {
  if (!scan) return emptyDnsRecords;
  const byType = new Map(checks.map((c) => [c.type, c]));
  const spf = byType.get('spf');
  const snapshot = (scan.dnsSnapshot ?? null) as SnapshotShape | null;
  const dns = byType.get('dns_performance')?.details as { aRecords?: unknown; mxRecords?: unknown } | undefined;
  const dmarc = byType.get('dmarc')?.details as { record?: unknown } | undefined;
  const spfDetails = spf?.details as { record?: unknown } | undefined;
  return {
    aRecords: snapshot ? strings(snapshot.a) : strings(dns?.aRecords),
    mxRecords: snapshot ? mxList(snapshot.mx) : mxList(dns?.mxRecords),
    spfRecord: snapshot ? stringOrNull(snapshot.spfRecord) : stringOrNull(spfDetails?.record),
    spfIps: spfIps(spf),
    dmarcRecord: snapshot ? stringOrNull(snapshot.dmarcRecord) : stringOrNull(dmarc?.record),
    checkedAt: toIsoOrNull(scan.completedAt ?? scan.createdAt),
  };
}
