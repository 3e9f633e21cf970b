/**
 * Which alerts a completed scan raises. Pure, no I/O: the recorder asks the database what was
 * already raised and writes the result.
 */
import { AlertType, type AlertSeverity } from '@sendwell/contracts';
import type { CheckResult } from '../checks/types.js';
import { snapshotKeys, type DnsSnapshot, type SnapshotKey } from '../scan/dns-snapshot.js';

export interface NewAlert {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  details: Record<string, unknown>;
}

/** Days before expiry at which `ssl_expiring` is raised, each once per certificate (issue 3). */
export const SSL_EXPIRY_THRESHOLDS = [30, 14, 7] as const;
export type SslThreshold = (typeof SSL_EXPIRY_THRESHOLDS)[number];
const severityByThreshold: Record<SslThreshold, AlertSeverity> = { 30: 'medium', 14: 'high', 7: 'critical' };

const DAY_MS = 86_400_000;

export interface CertificateExpiry {
  expiresAt: string;
  daysRemaining: number;
}

/** The certificate's expiry as the SSL check reported it; null when the check could not read one. */
export function certificateExpiry(ssl: CheckResult, now: Date): CertificateExpiry | null {
  const expiresAt = typeof ssl.details.expiresAt === 'string' ? ssl.details.expiresAt : null;
  if (!expiresAt || Number.isNaN(Date.parse(expiresAt))) return null;
  const daysRemaining =
    typeof ssl.details.daysRemaining === 'number' ? ssl.details.daysRemaining : Math.floor((Date.parse(expiresAt) - now.getTime()) / DAY_MS);
  return { expiresAt: new Date(expiresAt).toISOString(), daysRemaining };
}

/**
 * The tightest threshold the certificate is within (7 before 14 before 30), or null. Only that one is
 * raised: a certificate first seen at 5 days gets the 7-day alert, not three at once. Expired
 * certificates are past these thresholds (the SSL check reports them as errors).
 */
export function sslThresholdReached(daysRemaining: number): SslThreshold | null {
  if (daysRemaining < 0) return null;
  for (const threshold of [...SSL_EXPIRY_THRESHOLDS].sort((a, b) => a - b)) {
    if (daysRemaining <= threshold) return threshold;
  }
  return null;
}

/** Thresholds already raised for this certificate (same expiry) → whether this one is new. */
export function sslExpiringAlert(domain: string, expiry: CertificateExpiry, alreadyRaised: ReadonlyArray<number>): NewAlert | null {
  const threshold = sslThresholdReached(expiry.daysRemaining);
  if (threshold === null) return null;
  // A tighter threshold already raised covers this one (a retried scan or a clock step backwards).
  if (alreadyRaised.some((t) => t <= threshold)) return null;
  const days = expiry.daysRemaining === 1 ? '1 day' : `${expiry.daysRemaining} days`;
  return {
    type: AlertType.SslExpiring,
    severity: severityByThreshold[threshold],
    title: `SSL certificate for ${domain} expires in ${days}`,
    message: `The certificate served for ${domain} expires on ${expiry.expiresAt.slice(0, 10)}. Renew it before then so visitors and mail links keep working.`,
    details: { threshold, expiresAt: expiry.expiresAt, daysRemaining: expiry.daysRemaining },
  };
}

export interface SnapshotChange {
  record: SnapshotKey;
  added: string[];
  removed: string[];
}

function values(snapshot: DnsSnapshot, key: SnapshotKey): string[] {
  switch (key) {
    case 'mx':
      return snapshot.mx.map((m) => `${m.priority} ${m.exchange}${m.ips.length ? ` (${m.ips.join(', ')})` : ''}`);
    case 'spfRecord':
    case 'dmarcRecord':
      return snapshot[key] === null ? [] : [snapshot[key]];
    default:
      return snapshot[key];
  }
}

/** What differs between two snapshots, record set by record set; sets either side failed to read are skipped. */
export function diffSnapshots(previous: DnsSnapshot, current: DnsSnapshot): SnapshotChange[] {
  const changes: SnapshotChange[] = [];
  for (const key of snapshotKeys) {
    if (previous.failed?.includes(key) || current.failed?.includes(key)) continue;
    const before = new Set(values(previous, key));
    const after = new Set(values(current, key));
    const added = [...after].filter((v) => !before.has(v));
    const removed = [...before].filter((v) => !after.has(v));
    if (added.length || removed.length) changes.push({ record: key, added, removed });
  }
  return changes;
}

const recordLabel: Record<SnapshotKey, string> = {
  a: 'A',
  aaaa: 'AAAA',
  mx: 'MX',
  ns: 'NS',
  txt: 'TXT',
  spfRecord: 'SPF',
  dmarcRecord: 'DMARC',
};
/** Changes to where mail goes or how it is authenticated matter more than an address change. */
const mailRecords: ReadonlySet<SnapshotKey> = new Set(['mx', 'ns', 'spfRecord', 'dmarcRecord']);

export function dnsChangeAlert(domain: string, changes: SnapshotChange[]): NewAlert | null {
  if (changes.length === 0) return null;
  const names = changes.map((c) => recordLabel[c.record]);
  return {
    type: AlertType.DnsChange,
    severity: changes.some((c) => mailRecords.has(c.record)) ? 'high' : 'low',
    title: `DNS records changed for ${domain}`,
    message: `Since the previous scan, these records of ${domain} changed: ${names.join(', ')}. If you did not make this change, check your DNS provider.`,
    details: { changes: changes.map((c) => ({ ...c, record: recordLabel[c.record] })) },
  };
}
