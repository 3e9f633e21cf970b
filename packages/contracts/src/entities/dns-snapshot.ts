import { z } from '../zod.js';
import { isoDateTime } from '../common.js';
import { domainProfileSchema } from './check.js';

/** The record sets a snapshot holds; `failed` names those that could not be read this time. */
export const snapshotKeys = ['a', 'aaaa', 'mx', 'ns', 'txt', 'spfRecord', 'dmarcRecord', 'mtaStsRecord', 'tlsRptRecord', 'bimiRecord'] as const;
export const snapshotKeySchema = z.enum(snapshotKeys);
export type SnapshotKey = z.infer<typeof snapshotKeySchema>;

export const snapshotMxSchema = z.object({
  exchange: z.string(),
  priority: z.number().int().nonnegative(),
  /** The exchange's A and AAAA addresses, sorted. */
  ips: z.array(z.string()),
});
export type SnapshotMx = z.infer<typeof snapshotMxSchema>;

/**
 * The domain's DNS as one scan saw it: the scanner writes it to `scans.dns_snapshot` and compares it
 * with the previous scan's for `dns_change` alerts; domains shows it on the detail page. Every list
 * is sorted so two snapshots compare by value. Readers parse it with this schema.
 */
export const dnsSnapshotSchema = z.object({
  takenAt: isoDateTime,
  a: z.array(z.string()),
  aaaa: z.array(z.string()),
  mx: z.array(snapshotMxSchema),
  ns: z.array(z.string()),
  txt: z.array(z.string()),
  spfRecord: z.string().nullable(),
  dmarcRecord: z.string().nullable(),
  /** Record sets whose query timed out or failed: a comparison skips them rather than report them as removed. */
  failed: z.array(snapshotKeySchema),
  /**
   * The mail policy records of the second depth (`_mta-sts`, `_smtp._tls`, `default._bimi`), so a
   * change (an MTA-STS policy id, a TLS report address) is a DNS change; scans before it lack them.
   */
  mtaStsRecord: z.string().nullable().optional(),
  tlsRptRecord: z.string().nullable().optional(),
  bimiRecord: z.string().nullable().optional(),
  /** What the domain is for, judged from its MX and SPF (scans before the second depth lack it). */
  profile: domainProfileSchema.optional(),
});
export type DnsSnapshot = z.infer<typeof dnsSnapshotSchema>;
