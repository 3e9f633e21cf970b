import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { reportFormats } from './report-rules.js';
export { reportFormats, reportFormatMedia, reportFileName, REPORT_SIZE_ESTIMATE_MB, REPORT_SUMMARY_PREVIEW_CHARS } from './report-rules.js';

/** Known report types; stored as text because part 1 §3 says "among others". */
export const reportTypes = ['automated', 'full', 'summary'] as const;
export const reportTypeSchema = z.enum(reportTypes);
export type ReportType = z.infer<typeof reportTypeSchema>;

/** A report is a row at once (so the screen shows its progress) and its document when a worker built it. */
export const reportStatuses = ['pending', 'generating', 'completed', 'failed'] as const;
export const reportStatusSchema = z.enum(reportStatuses);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/**
 * What the listing carries of a report: the names part 1 §3 gives `data` (domainName, summary), never
 * the rendered formats, which are fetched one at a time from the download call.
 */
export const reportDataSchema = z.looseObject({
  domainName: z.string(),
  summary: z.string(),
  /** The document's score when it was built; null while pending or when the domain had no score. */
  score: z.number().int().min(0).max(100).nullable().optional(),
  /** Why generation failed, in words for the user. */
  error: z.string().optional(),
});
export type ReportData = z.infer<typeof reportDataSchema>;

export const reportSchema = z.object({
  id: idSchema,
  userId: idSchema,
  domainId: idSchema.nullable(),
  type: z.string(),
  status: z.string(),
  data: reportDataSchema,
  isPurchased: z.boolean(),
  purchaseId: z.string().nullable(),
  createdAt: isoDateTime,
});
export type Report = z.infer<typeof reportSchema>;

export const reportFormatSchema = z.enum(reportFormats, { error: 'Format must be pdf, html, json or text' });
export type ReportFormat = z.infer<typeof reportFormatSchema>;

