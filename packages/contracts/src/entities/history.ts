import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { checkStatusSchema, checkTypeSchema, dnsRecordsSchema, domainCheckSchema } from './check.js';
import { domainStatusSchema } from './domain.js';
import { scanIdSchema, scanSchema, scanStatusSchema } from './scan.js';

/** Health of one scan group (part 2 §4): critical, then warning, else healthy. */
export const scanHealths = ['critical', 'warning', 'healthy'] as const;
export const scanHealthSchema = z.enum(scanHealths);
export type ScanHealth = z.infer<typeof scanHealthSchema>;

/** One scan in the history list, with a summary of its checks. */
export const historyScanSchema = z.object({
  id: scanIdSchema,
  status: scanStatusSchema,
  createdAt: isoDateTime,
  checkCount: z.number().int().nonnegative(),
  passedCount: z.number().int().nonnegative(),
  health: scanHealthSchema,
  /** The domain's overall status after this scan. */
  overallStatus: domainStatusSchema.nullable(),
  /** Each check's status in this scan, so the page can say what changed from the scan before. */
  checks: z.partialRecord(checkTypeSchema, checkStatusSchema),
  /** The reputation score calculated for this scan; null where the plan has no scores or none was stored. */
  score: z.number().int().min(0).max(100).nullable(),
  /** The semantic DNS differences from the previous scan, e.g. "DMARC policy downgraded from reject to none". */
  dnsChanges: z.array(z.string()),
});
export type HistoryScan = z.infer<typeof historyScanSchema>;

/** One card of the history page: active and deleted domains; deleted ones carry no scans (part 2 §4). */
export const historyDomainSchema = z.object({
  id: idSchema,
  name: z.string(),
  status: domainStatusSchema,
  scanCount: z.number().int().nonnegative(),
  lastScan: isoDateTime.nullable(),
  isDeleted: z.boolean(),
  deletedAt: isoDateTime.nullable(),
  /** Newest first: one page (see `historyQuery`). */
  scans: z.array(historyScanSchema),
  /** The `before` of the next (older) page; null when this page holds the oldest scan of the window. */
  nextCursor: z.string().nullable(),
});
export type HistoryDomain = z.infer<typeof historyDomainSchema>;

/** One day of a domain's history (`GET /api/domains/{id}/history/days`): what the timeline draws. */
export const historyDaySchema = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.iso.date(),
  /** Completed scans that day. */
  scans: z.number().int().positive(),
  /** The health of the day's last scan. */
  health: scanHealthSchema,
  /** The domain's overall status after the day's last scan. */
  overallStatus: domainStatusSchema.nullable(),
  /** The day's last reputation score; null where the plan has no scores or none was stored. */
  score: z.number().int().min(0).max(100).nullable(),
});
export type HistoryDay = z.infer<typeof historyDaySchema>;

/** One scan with its checks (`GET /api/domain-checks/{scanId}`). */
export const scanDetailSchema = z.object({
  scan: scanSchema,
  domain: z.object({ id: idSchema, name: z.string() }),
  checks: z.array(domainCheckSchema),
  checkCount: z.number().int().nonnegative(),
  passedCount: z.number().int().nonnegative(),
  health: scanHealthSchema,
  /** The DNS records this scan read (its snapshot, else what its checks recorded). */
  dnsRecords: dnsRecordsSchema,
});
export type ScanDetail = z.infer<typeof scanDetailSchema>;

/** Last-scan summary, also for a deleted domain (part 2 §3, §2.5). */
export const lastScanSummarySchema = z.object({
  domainName: z.string(),
  domainId: idSchema,
  status: domainStatusSchema,
  scanDate: isoDateTime.nullable(),
  scanCount: z.number().int().nonnegative(),
  isDeletedDomainSummary: z.boolean(),
  deletionDate: isoDateTime.nullable(),
  summary: z.object({
    note: z.string(),
    totalScans: z.number().int().nonnegative(),
    lastScanDate: isoDateTime.nullable(),
    domainStatus: domainStatusSchema,
  }),
});
export type LastScanSummary = z.infer<typeof lastScanSummarySchema>;
