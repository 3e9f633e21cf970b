import { dnsSnapshotSchema, type CheckDetails, type CheckType, type DnsRecords, type DomainCheck } from '@sendwell/contracts';
import { toIsoOrNull } from '../shared/time.js';

const nonEmptyOrNull = (value: string | null | undefined): string | null => (value ? value : null);

function detailsOf<T extends CheckType>(checks: readonly DomainCheck[], type: T): CheckDetails<T> | undefined {
  return checks.find((c): c is Extract<DomainCheck, { type: T }> => c.type === type)?.details as CheckDetails<T> | undefined;
}

export const emptyDnsRecords: DnsRecords = { aRecords: [], mxRecords: [], spfRecord: null, spfIps: [], dmarcRecord: null, checkedAt: null };

/**
 * The detail page's DNS section from the latest completed scan: its DNS snapshot (written by the
 * scanner, parsed with the contracts' schema) first; for a scan without a valid one, what the checks'
 * own details recorded.
 */
export function toDnsRecords(scan: { completedAt: Date | null; createdAt: Date; dnsSnapshot: unknown } | undefined, checks: readonly DomainCheck[]): DnsRecords {
  if (!scan) return emptyDnsRecords;
  const parsed = scan.dnsSnapshot == null ? undefined : dnsSnapshotSchema.safeParse(scan.dnsSnapshot);
  const snapshot = parsed?.success ? parsed.data : null;
  const spf = detailsOf(checks, 'spf');
  const dns = detailsOf(checks, 'dns_performance');
  // The addresses SPF authorises, flattened by the SPF check, without repeats.
  const spfIps = [...new Set((spf?.flattenedIps ?? []).map((f) => f.ip))];
  return {
    aRecords: snapshot ? snapshot.a : (dns?.aRecords ?? []),
    mxRecords: (snapshot ? snapshot.mx : (dns?.mxRecords ?? [])).map(({ exchange, priority, ips }) => ({ exchange, priority, ips: ips ?? [] })),
    spfRecord: nonEmptyOrNull(snapshot ? snapshot.spfRecord : spf?.record),
    spfIps,
    dmarcRecord: nonEmptyOrNull(snapshot ? snapshot.dmarcRecord : detailsOf(checks, 'dmarc')?.record),
    checkedAt: toIsoOrNull(scan.completedAt ?? scan.createdAt),
  };
}
