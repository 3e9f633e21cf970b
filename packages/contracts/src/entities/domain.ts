import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';

/** Stored domain statuses; the interface shows healthy, warning, critical and pending, anything else as unknown. */
export const domainStatuses = ['pending', 'healthy', 'warning', 'critical', 'error', 'unknown'] as const;
export const domainStatusSchema = z.enum(domainStatuses);
export type DomainStatus = z.infer<typeof domainStatusSchema>;

/**
 * Free-form settings kept on a domain. Loose because the scanner and later features add keys; the
 * ones read by code are named here.
 */
export const domainMetadataSchema = z.looseObject({
  /** DKIM selectors to try besides the common ones (DKIM keys cannot be listed, only probed). */
  dkimSelectors: z
    .array(z.string().trim().min(1).max(63).regex(/^[\w.-]+$/, 'Invalid DKIM selector'))
    .max(20)
    .optional(),
});
export type DomainMetadata = z.infer<typeof domainMetadataSchema>;

/** A domain as the domain calls answer it. */
export const domainSchema = z.object({
  id: idSchema,
  userId: idSchema,
  name: z.string(),
  status: domainStatusSchema,
  lastScan: isoDateTime.nullable(),
  scanCount: z.number().int().nonnegative(),
  hasDetailedReport: z.boolean(),
  metadata: domainMetadataSchema,
  isDeleted: z.boolean(),
  deletedAt: isoDateTime.nullable(),
  /** When the scheduler next scans it; null on manual-only plans and for deleted domains. */
  nextScanAt: isoDateTime.nullable(),
  /** Above the plan's domain limit after a downgrade: shown, but neither scheduled nor scanned on demand. */
  scanPaused: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Domain = z.infer<typeof domainSchema>;

/** A manual scan of a domain paused above the plan's limit. */
export const scanPausedMessage = (limit: number): string =>
  `This domain is above your plan's limit of ${limit} domain${limit === 1 ? '' : 's'}. Upgrade your plan or remove a domain to scan it again.`;

/**
 * One row of the Recently Deleted panel and of `GET /api/domains/deleted`. The answer spells fields in
 * camelCase only (part 1 §7 says the old client also read deleted_at and scan_count).
 */
export const deletedDomainSchema = z.object({
  id: idSchema,
  name: z.string(),
  status: domainStatusSchema,
  scanCount: z.number().int().nonnegative(),
  lastScan: isoDateTime.nullable(),
  deletedAt: isoDateTime,
  /** End of the 90-day restore window; after it the domain and its history are purged. */
  restorableUntil: isoDateTime,
});
export type DeletedDomain = z.infer<typeof deletedDomainSchema>;
