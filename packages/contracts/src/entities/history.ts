import { z } from 'zod';
import { idSchema, isoDateTime } from '../common.js';
import { domainCheckSchema } from './check.js';
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
  /** Newest first. */
  scans: z.array(historyScanSchema),
});
export type HistoryDomain = z.infer<typeof historyDomainSchema>;

/** One scan with its checks (`GET /api/domain-checks/{scanId}`). */
export const scanDetailSchema = z.object({
  scan: scanSchema,
  domain: z.object({ id: idSchema, name: z.string() }),
  checks: z.array(domainCheckSchema),
  checkCount: z.number().int().nonnegative(),
  passedCount: z.number().int().nonnegative(),
  health: scanHealthSchema,
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
