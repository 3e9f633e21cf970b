import { z } from '../zod.js';
import { idParamSchema } from '../common.js';
import { isoDay, receivedReportsSchema, reportAddressesSchema, mailFlowSchema, tlsReportsSchema } from '../entities/mail-flow.js';
export * from '../entities/mail-flow.js';
export * from '../entities/sending-services.js';

export { MAIL_FLOW_PLAN_MESSAGE } from './mail-flow-messages.js';
export const REPORT_ADDRESS_UNKNOWN = 'No report address has this token.';
export const UPLOAD_EMPTY_MESSAGE = 'The upload is empty: send the report file as the request body.';

/** A window of days: both ends optional (the last 30 days by default), `from` not after `to`, at most 400 days. */
export const MAIL_FLOW_DEFAULT_DAYS = 30;
export const mailFlowWindowQuery = z
  .object({
    from: isoDay.optional().describe('First day, YYYY-MM-DD (UTC); absent, the window holds the 30 days up to `to`'),
    to: isoDay.optional().describe('Last day, YYYY-MM-DD (UTC); today when absent'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] });
export type MailFlowWindowQuery = z.infer<typeof mailFlowWindowQuery>;

export const receivedReportParams = z.object({ id: idParamSchema, reportId: idParamSchema });
export type ReceivedReportParams = z.infer<typeof receivedReportParams>;

/** The path token of a TLS-RPT HTTPS submission: what the report address's local part holds. */
export const reportTokenSchema = z.string().regex(/^[a-z0-9]{24}$/, 'Unknown report address');
export const tlsRptTokenParams = z.object({ token: reportTokenSchema });

/** PUT /api/domains/{id}/mail-flow/settings */
export const mailFlowSettingsBody = z.strictObject({
  failureReports: z.boolean({ error: 'failureReports must be true or false' }),
});
export type MailFlowSettingsBody = z.infer<typeof mailFlowSettingsBody>;

export const reportAddressesAnswer = reportAddressesSchema;
export const okMailFlowSettingsAnswer = z.object({ failureReports: z.boolean() });
export const mailFlowAnswer = mailFlowSchema;
export const tlsReportsAnswer = tlsReportsSchema;
export const receivedReportsAnswer = receivedReportsSchema;

/** POST /api/domains/{id}/dmarc-reports: each report of the upload, stored or already there. */
export const uploadReportsAnswer = z.object({
  accepted: z.array(z.object({ kind: z.enum(['aggregate', 'tls']), reporter: z.string(), reportId: z.string(), records: z.number().int().nonnegative() })),
  duplicates: z.array(z.object({ kind: z.enum(['aggregate', 'tls']), reporter: z.string(), reportId: z.string() })),
});
export type UploadReportsAnswer = z.infer<typeof uploadReportsAnswer>;

/** POST /api/intake/tls-rpt/{token} (RFC 8460 §5.3: any 2xx is success). */
export const tlsRptSubmissionAnswer = z.object({ accepted: z.literal(true) });

/** Largest upload or HTTPS report body, compressed. */
export const MAX_REPORT_UPLOAD_BYTES = 10 * 1024 * 1024;
