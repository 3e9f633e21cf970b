import { z } from '../zod.js';
import { idParamSchema, idSchema, okSchema } from '../common.js';
import { reportDocumentSchema } from '../entities/report-document.js';
import { reportFormatSchema, reportSchema } from '../entities/report.js';
import { textField } from '../validation.js';
import { NO_DOMAINS_FOR_REPORTS } from './report-messages.js';
export { NO_DOMAINS_FOR_REPORTS } from './report-messages.js';

/** GET /api/reports: newest first, without the documents (see `getReportAnswer`). */
export const listReportsAnswer = z.array(reportSchema);
export type ListReportsAnswer = z.infer<typeof listReportsAnswer>;

/** GET /api/reports/{id}: the row and, once built, its document (the JSON download's content). */
export const getReportAnswer = reportSchema.extend({ document: reportDocumentSchema.nullable() });
export type GetReportAnswer = z.infer<typeof getReportAnswer>;

/**
 * A domain as the client sends it: the whole domain object (part 1 §7), of which the server reads only
 * the id or the name and re-checks ownership.
 */
export const reportDomainRefSchema = z
  .looseObject({ id: idSchema.optional(), name: textField({ label: 'Domain name', max: 253 }).toLowerCase().optional() })
  .refine((d) => d.id !== undefined || (d.name !== undefined && d.name !== ''), {
    message: 'Each domain needs an id or a name',
  });

export const MAX_DOMAINS_PER_GENERATE = 50;

/** POST /api/reports/generate */
export const generateReportsBody = z.object({
  domains: z
    .array(reportDomainRefSchema, { error: NO_DOMAINS_FOR_REPORTS })
    .min(1, NO_DOMAINS_FOR_REPORTS)
    .max(MAX_DOMAINS_PER_GENERATE, `At most ${MAX_DOMAINS_PER_GENERATE} domains per request`),
  type: z.enum(['full', 'summary'], { error: 'Report type must be full or summary' }).default('full'),
});
export type GenerateReportsBody = z.input<typeof generateReportsBody>;

/** Why a domain of the request got no report. */
export const reportRefusalReasons = ['not_found', 'quota'] as const;
export const generateReportsAnswer = z.object({
  message: z.string(),
  /** The rows queued for generation (status pending), one per accepted domain. */
  reports: z.array(reportSchema),
  refused: z.array(z.object({ domain: z.string(), reason: z.enum(reportRefusalReasons), message: z.string() })),
  /** Stored reports after this request, against the plan's quota. */
  used: z.number().int().min(0),
  quota: z.number().int().min(0),
});
export type GenerateReportsAnswer = z.infer<typeof generateReportsAnswer>;

/** GET, DELETE /api/reports/{id} */
export const reportIdParams = z.object({ id: idParamSchema });
export type ReportIdParams = z.infer<typeof reportIdParams>;
export const deleteReportAnswer = okSchema;
export type DeleteReportAnswer = z.infer<typeof deleteReportAnswer>;

/** GET /api/reports/{id}/download?format= */
export const downloadReportQuery = z.object({
  format: reportFormatSchema.default('pdf'),
  /** `1`: the HTML is shown in the page's preview rather than saved (Content-Disposition inline). */
  inline: z.enum(['0', '1'], { error: 'inline must be 0 or 1' }).default('0'),
});
export type DownloadReportQuery = z.input<typeof downloadReportQuery>;

export const REPORT_NOT_FOUND = 'Report not found';
export const REPORT_NOT_READY = 'This report is still being generated. Try again in a moment.';
export const REPORT_FAILED = 'This report could not be generated. Delete it and generate it again.';
export const reportQuotaMessage = (quota: number) =>
  `You have reached your limit of ${quota} stored reports. Delete old reports or upgrade your plan to store more.`;
export const REPORTS_PLAN_MESSAGE = 'Reports are available on paid plans. Please upgrade to generate reports.';
export const reportsGeneratedMessage = (queued: number, refused: number) =>
  refused === 0
    ? `${queued} report${queued === 1 ? '' : 's'} queued for generation.`
    : `${queued} report${queued === 1 ? '' : 's'} queued for generation; ${refused} refused.`;
