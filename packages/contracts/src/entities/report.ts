import { z } from 'zod';
import { idSchema, isoDateTime } from '../common.js';

/** Known report types; stored as text because part 1 §3 says "among others". */
export const reportTypes = ['automated', 'full', 'summary'] as const;
export const reportTypeSchema = z.enum(reportTypes);
export type ReportType = z.infer<typeof reportTypeSchema>;

/** What a report carries; downloads are built on the client from pdf (base64), html, json or text. */
export const reportDataSchema = z.looseObject({
  domainName: z.string(),
  summary: z.string(),
  pdf: z.string().optional(),
  html: z.string().optional(),
  json: z.unknown().optional(),
  text: z.string().optional(),
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
