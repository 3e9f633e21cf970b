import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { invoiceSchema } from '../entities/billing.js';
import { userSchema } from '../entities/user.js';

/*
 * GET /api/user/export: everything Sendwell stores about the caller, as one JSON download. Secrets are
 * never part of it: no password hash, no token, no integration config, no webhook signing secret, and
 * a webhook's address only up to its host (paths of chat webhooks carry their tokens).
 */

export const exportedDomainSchema = z.object({
  id: idSchema,
  name: z.string(),
  status: z.string(),
  scanCount: z.number().int(),
  lastScan: isoDateTime.nullable(),
  createdAt: isoDateTime,
  deletedAt: isoDateTime.nullable(),
});

/** Scans per domain, summed up: the checks themselves stay in the app (and its reports). */
export const exportedScanSummarySchema = z.object({
  domainId: idSchema,
  domainName: z.string(),
  scans: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  firstScanAt: isoDateTime.nullable(),
  lastScanAt: isoDateTime.nullable(),
});

export const exportedAlertSchema = z.object({
  id: idSchema,
  domainId: idSchema,
  type: z.string(),
  severity: z.string(),
  title: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  resolvedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});

export const exportedIntegrationSchema = z.object({
  service: z.string(),
  isEnabled: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const exportedWebhookSchema = z.object({
  id: idSchema,
  /** Scheme and host only. */
  origin: z.string(),
  description: z.string().nullable(),
  isEnabled: z.boolean(),
  createdAt: isoDateTime,
});

export const exportedReportSchema = z.object({
  id: idSchema,
  domainId: idSchema.nullable(),
  type: z.string(),
  status: z.string(),
  createdAt: isoDateTime,
});

export const accountExportSchema = z.object({
  exportedAt: isoDateTime,
  profile: userSchema,
  domains: z.array(exportedDomainSchema),
  scans: z.array(exportedScanSummarySchema),
  alerts: z.array(exportedAlertSchema),
  integrations: z.array(exportedIntegrationSchema),
  webhooks: z.array(exportedWebhookSchema),
  reports: z.array(exportedReportSchema),
  invoices: z.array(invoiceSchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;

/** The download's file name: `sendwell-export-2026-11-26.json` (the UTC date of the export). */
export const accountExportFileName = (at: Date): string => `sendwell-export-${at.toISOString().slice(0, 10)}.json`;
