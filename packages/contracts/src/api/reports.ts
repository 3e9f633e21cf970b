import { z } from 'zod';
import { idParamSchema, idSchema, okSchema } from '../common.js';
import { reportSchema } from '../entities/report.js';
import { textField } from '../validation.js';

/** GET /api/reports: newest first. */
export const listReportsAnswer = z.array(reportSchema);
export type ListReportsAnswer = z.infer<typeof listReportsAnswer>;

export const NO_DOMAINS_FOR_REPORTS = 'No domains available - You need to add domains before generating reports.';

/**
 * A domain as the client sends it: the whole domain object (part 1 §7), of which the server reads only
 * the id or the name and re-checks ownership.
 */
export const reportDomainRefSchema = z
  .looseObject({ id: idSchema.optional(), name: textField({ label: 'Domain name', max: 253 }).toLowerCase().optional() })
  .refine((d) => d.id !== undefined || (d.name !== undefined && d.name !== ''), {
    message: 'Each domain needs an id or a name',
  });

/** POST /api/reports/generate */
export const generateReportsBody = z.object({
  domains: z
    .array(reportDomainRefSchema, { error: NO_DOMAINS_FOR_REPORTS })
    .min(1, NO_DOMAINS_FOR_REPORTS)
    .max(50, 'At most 50 domains per request'),
  type: z.enum(['full', 'summary'], { error: 'Report type must be full or summary' }).default('full'),
});
export type GenerateReportsBody = z.input<typeof generateReportsBody>;
export const generateReportsAnswer = z.object({ message: z.string(), reports: z.array(reportSchema) });
export type GenerateReportsAnswer = z.infer<typeof generateReportsAnswer>;

/** DELETE /api/reports/{id} */
export const reportIdParams = z.object({ id: idParamSchema });
export type ReportIdParams = z.infer<typeof reportIdParams>;
export const deleteReportAnswer = okSchema;

export const REPORT_NOT_FOUND = 'Report not found';
export const reportQuotaMessage = (quota: number) =>
  `You have reached your limit of ${quota} stored reports. Delete old reports or upgrade your plan to store more.`;
export const REPORTS_PLAN_MESSAGE = 'Reports are available on paid plans. Please upgrade to generate reports.';
