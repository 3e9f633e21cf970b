import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { scanIdSchema } from './scan.js';

export const checkTypes = ['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate', 'dns_performance'] as const;
export const checkTypeSchema = z.enum(checkTypes);
export type CheckType = z.infer<typeof checkTypeSchema>;

export const checkStatuses = ['valid', 'success', 'warning', 'error', 'missing', 'unknown'] as const;
export const checkStatusSchema = z.enum(checkStatuses);
export type CheckStatus = z.infer<typeof checkStatusSchema>;

/**
 * One concrete problem a check found, e.g. `SPF_TOO_MANY_LOOKUPS` with `rfc: 'RFC 7208 §4.6.4'`.
 * Codes are stable so guides, alerts and reports can key on them; messages are for people.
 */
export const findingSeverities = ['error', 'warning', 'info'] as const;
export const findingSeveritySchema = z.enum(findingSeverities);
export type FindingSeverity = z.infer<typeof findingSeveritySchema>;
export const findingSchema = z.looseObject({
  code: z.string().regex(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, 'Finding codes are UPPER_SNAKE_CASE'),
  severity: findingSeveritySchema,
  message: z.string(),
  /** The clause the finding rests on, e.g. 'RFC 7489 §6.3'. */
  rfc: z.string().optional(),
  recommendation: z.string().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

/*
 * Details per check type (part 2 §3). Every schema is loose and every field optional: the scanner adds
 * fields over time and old rows lack new ones, so readers must cope with absence.
 */
const base = { findings: z.array(findingSchema).optional() };

export const spfDetailsSchema = z.looseObject({
  ...base,
  issue: z.string().nullable().optional(),
  record: z.string().nullable().optional(),
  /** DNS-querying mechanisms counted against the limit of 10 (RFC 7208 §4.6.4). */
  lookupCount: z.number().int().nonnegative().optional(),
  /** The addresses and networks the record authorises, each with the domain and term it came from. */
  flattenedIps: z.array(z.looseObject({ ip: z.string(), source: z.string().optional() })).optional(),
});
export type SpfDetails = z.infer<typeof spfDetailsSchema>;

export const dkimRecordSchema = z.looseObject({ selector: z.string(), record: z.string() });
export const dkimDetailsSchema = z.looseObject({
  ...base,
  records: z.array(dkimRecordSchema).optional(),
  selectorsChecked: z.array(z.string()).optional(),
});
export type DkimDetails = z.infer<typeof dkimDetailsSchema>;

export const dmarcDetailsSchema = z.looseObject({
  ...base,
  policy: z.string().nullable().optional(),
  record: z.string().nullable().optional(),
  pct: z.number().int().min(0).max(100).optional(),
});
export type DmarcDetails = z.infer<typeof dmarcDetailsSchema>;

export const sslDetailsSchema = z.looseObject({
  ...base,
  issuer: z.string().nullable().optional(),
  expiresAt: isoDateTime.nullable().optional(),
  daysRemaining: z.number().int().optional(),
});
export type SslDetails = z.infer<typeof sslDetailsSchema>;

export const blacklistSiteStatuses = ['clean', 'listed', 'unknown'] as const;
export const blacklistSiteSchema = z.looseObject({
  name: z.string(),
  status: z.enum(blacklistSiteStatuses),
  url: z.string().nullable().optional(),
  lookupUrl: z.string().nullable().optional(),
  removalUrl: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});
export type BlacklistSite = z.infer<typeof blacklistSiteSchema>;
export const ipResultSchema = z.looseObject({
  ip: z.string(),
  clean: z.boolean(),
  description: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  listedServices: z.array(z.looseObject({ service: z.string(), removalUrl: z.string().nullable().optional() })).optional(),
});
export const blacklistDetailsSchema = z.looseObject({
  ...base,
  sites: z.array(blacklistSiteSchema).optional(),
  totalIpsChecked: z.number().int().nonnegative().optional(),
  cleanIps: z.number().int().nonnegative().optional(),
  listedIpsCount: z.number().int().nonnegative().optional(),
  allIpResults: z.array(ipResultSchema).optional(),
  error: z.string().nullable().optional(),
  recommendation: z.string().nullable().optional(),
});
export type BlacklistDetails = z.infer<typeof blacklistDetailsSchema>;

export const mxRecordSchema = z.looseObject({
  exchange: z.string(),
  priority: z.number().int().nonnegative(),
  ips: z.array(z.string()).optional(),
});
export type MxRecord = z.infer<typeof mxRecordSchema>;
export const dnsDetailsSchema = z.looseObject({
  ...base,
  aRecords: z.array(z.string()).optional(),
  mxRecords: z.array(mxRecordSchema).optional(),
  spfRecord: z.string().nullable().optional(),
  spfIps: z.array(z.string()).optional(),
  dmarcRecord: z.string().nullable().optional(),
  /** Slowest authoritative answer seen, which the performance label is graded on. */
  responseTimeMs: z.number().nonnegative().optional(),
});
export type DnsDetails = z.infer<typeof dnsDetailsSchema>;

export const checkDetailsByType = {
  spf: spfDetailsSchema,
  dkim: dkimDetailsSchema,
  dmarc: dmarcDetailsSchema,
  blacklist: blacklistDetailsSchema,
  ssl_certificate: sslDetailsSchema,
  dns_performance: dnsDetailsSchema,
} as const satisfies Record<CheckType, z.ZodType>;
export type CheckDetails<T extends CheckType> = z.infer<(typeof checkDetailsByType)[T]>;

const checkBase = z.object({
  id: idSchema,
  domainId: idSchema,
  scanId: scanIdSchema,
  status: checkStatusSchema,
  value: z.string().nullable(),
  message: z.string().nullable(),
  recommendation: z.string().nullable(),
  createdAt: isoDateTime,
});

/** One check result, its `details` typed by its `type`. */
export const domainCheckSchema = z.discriminatedUnion('type', [
  checkBase.extend({ type: z.literal('spf'), details: spfDetailsSchema }),
  checkBase.extend({ type: z.literal('dkim'), details: dkimDetailsSchema }),
  checkBase.extend({ type: z.literal('dmarc'), details: dmarcDetailsSchema }),
  checkBase.extend({ type: z.literal('blacklist'), details: blacklistDetailsSchema }),
  checkBase.extend({ type: z.literal('ssl_certificate'), details: sslDetailsSchema }),
  checkBase.extend({ type: z.literal('dns_performance'), details: dnsDetailsSchema }),
]);
export type DomainCheck = z.infer<typeof domainCheckSchema>;

/** The DNS records the detail page shows (`GET /api/domains/name/{domainName}/dns-records`). */
export const dnsRecordsSchema = z.object({
  aRecords: z.array(z.string()),
  mxRecords: z.array(mxRecordSchema),
  spfRecord: z.string().nullable(),
  spfIps: z.array(z.string()),
  dmarcRecord: z.string().nullable(),
  /** When these were read: the latest DNS check, or now for a live lookup. */
  checkedAt: isoDateTime.nullable(),
});
export type DnsRecords = z.infer<typeof dnsRecordsSchema>;
