import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';

/**
 * Mail flow (issue 25): what the DMARC aggregate, failure and TLS-RPT reports sent to a domain's report
 * addresses say about its mail. Days are UTC calendar dates, `YYYY-MM-DD`.
 */
export const isoDay = z.iso.date();

/**
 * DMARC overrides (RFC 7489 §6.6.3 PolicyOverrideType) that mean the mail was relayed by someone other
 * than its author: such failures are forwarding, counted apart from failures and spoofing.
 */
export const RELAYED_OVERRIDES = ['forwarded', 'mailing_list', 'trusted_forwarder'] as const;

/** `tls_results_daily.result_type` of successful sessions; every other value is an RFC 8460 failure type. */
export const TLS_SUCCESS_RESULT = 'success';

/** A share between 0 and 1, rounded to 4 places; null where nothing was counted. */
const share = z.number().min(0).max(1).nullable();

export const dnsRecordToPublishSchema = z.object({
  type: z.literal('TXT'),
  /** The full name, e.g. `_dmarc.example.com`. */
  host: z.string(),
  value: z.string(),
  /** What it is for, one sentence. */
  purpose: z.string(),
});
export type DnsRecordToPublish = z.infer<typeof dnsRecordToPublishSchema>;

/** GET /api/domains/{id}/report-addresses */
export const reportAddressesSchema = z.object({
  domain: z.string(),
  /** `<token>@<INTAKE_DOMAIN>`: DMARC aggregate (rua) and failure (ruf) reports. */
  dmarcAddress: z.string(),
  /** `tls-<token>@<INTAKE_DOMAIN>`: TLS-RPT by mail. */
  tlsRptAddress: z.string(),
  /** TLS-RPT over HTTPS (RFC 8460 §5.3). */
  tlsRptUrl: z.string(),
  /** `_dmarc` (the domain's present record with our rua and ruf merged in) and `_smtp._tls`. */
  records: z.array(dnsRecordToPublishSchema),
  /** Failure reports are stored (redacted) only when the owner turns them on. */
  failureReports: z.boolean(),
  /** When the first report arrived; null until one has (the section shows the addresses till then). */
  firstReportAt: isoDateTime.nullable(),
});
export type ReportAddresses = z.infer<typeof reportAddressesSchema>;

export const senderCategories = ['authorised', 'forwarded', 'unknown'] as const;
export const senderCategorySchema = z.enum(senderCategories);
export type SenderCategory = z.infer<typeof senderCategorySchema>;

export const senderFixSchema = z.object({
  kind: z.enum(['spf', 'dkim']),
  /** What to do, one or two sentences. */
  text: z.string(),
  /** The record to add or change, where one can be given exactly. */
  record: z.string().nullable(),
});
export type SenderFix = z.infer<typeof senderFixSchema>;

export const senderAddressSchema = z.object({
  ip: z.string(),
  /** Its forward-confirmed reverse DNS name, or null. */
  host: z.string().nullable(),
  messages: z.number().int().nonnegative(),
});

export const mailSenderSchema = z.object({
  /** `service:<catalogue id>`, `host:<organisational domain>` or `ip:<address>`. */
  id: z.string(),
  name: z.string(),
  /** A catalogue service's id, when the sender is one. */
  serviceId: z.string().nullable(),
  /**
   * authorised: passes DMARC for most of its mail, or a known service; forwarded: relayed by a
   * forwarder or list (ARC, the reporter's override, a known forwarder); unknown: neither (spoofing or an
   * unconfigured sender).
   */
  category: senderCategorySchema,
  /** The busiest addresses, at most 20. */
  addresses: z.array(senderAddressSchema),
  addressCount: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  spfAligned: share,
  dkimAligned: share,
  dmarcPass: share,
  dkimSelectors: z.array(z.string()),
  /** For a failing legitimate sender: what to change. */
  fixes: z.array(senderFixSchema),
});
export type MailSender = z.infer<typeof mailSenderSchema>;

export const dmarcPolicySchema = z.enum(['none', 'quarantine', 'reject']);
export type DmarcPolicy = z.infer<typeof dmarcPolicySchema>;

export const policyReadinessSchema = z.object({
  /** The policy the reporters saw published most recently, null before any report. */
  currentPolicy: dmarcPolicySchema.nullable(),
  /** DMARCbis `t=y` was published: receivers apply one step less. */
  testing: z.boolean(),
  /** The next step (none → quarantine → reject), null at reject. */
  nextPolicy: dmarcPolicySchema.nullable(),
  /** Mail from authorised senders in the window. */
  legitimateMessages: z.number().int().nonnegative(),
  /** Of it, what fails DMARC and so would be quarantined or rejected at the next step. */
  affectedMessages: z.number().int().nonnegative(),
  affectedShare: share,
  /** True when the affected share is under half a percent over at least 7 days of reports. */
  ready: z.boolean(),
  /** Why not ready, one sentence each. */
  blockers: z.array(z.string()),
  /** The `_dmarc` record to publish for the next step; null when not ready or already at reject. */
  record: z.string().nullable(),
});
export type PolicyReadiness = z.infer<typeof policyReadinessSchema>;

/** GET /api/domains/{id}/mail-flow */
export const mailFlowSchema = z.object({
  from: isoDay,
  to: isoDay,
  /** Days of data the plan keeps: `from` is never earlier than this many days ago. */
  retentionDays: z.number().int().positive(),
  messages: z.number().int().nonnegative(),
  dmarcPass: z.number().int().nonnegative(),
  dmarcFail: z.number().int().nonnegative(),
  /** Mail relayed by forwarders and lists, counted apart from failures. */
  forwarded: z.number().int().nonnegative(),
  reports: z.number().int().nonnegative(),
  daily: z.array(z.object({ day: isoDay, pass: z.number().int().nonnegative(), fail: z.number().int().nonnegative() })),
  senders: z.array(mailSenderSchema),
  readiness: policyReadinessSchema,
});
export type MailFlow = z.infer<typeof mailFlowSchema>;

/** GET /api/domains/{id}/tls-reports */
export const tlsReportsSchema = z.object({
  from: isoDay,
  to: isoDay,
  reports: z.number().int().nonnegative(),
  successfulSessions: z.number().int().nonnegative(),
  failedSessions: z.number().int().nonnegative(),
  daily: z.array(z.object({ day: isoDay, successful: z.number().int().nonnegative(), failed: z.number().int().nonnegative() })),
  /** Failed sessions by result type (RFC 8460 §4.3) and receiving MX host, most first. */
  failures: z.array(z.object({ resultType: z.string(), mxHost: z.string().nullable(), sessions: z.number().int().nonnegative() })),
  policies: z.array(
    z.object({
      policyType: z.string(),
      policyDomain: z.string(),
      successful: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    }),
  ),
});
export type TlsReports = z.infer<typeof tlsReportsSchema>;

export const reportChannels = ['smtp', 'https', 'upload'] as const;

export const receivedReportSchema = z.object({
  id: idSchema,
  kind: z.enum(['aggregate', 'tls']),
  reporter: z.string(),
  reporterEmail: z.string().nullable(),
  reportId: z.string(),
  begin: isoDateTime,
  end: isoDateTime,
  records: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  via: z.enum(reportChannels),
  receivedAt: isoDateTime,
  /** The report file as received (kept for a short while), or null once it is gone. */
  sourceUrl: z.string().nullable(),
});
export type ReceivedReport = z.infer<typeof receivedReportSchema>;

export const failureReportSummarySchema = z.object({
  id: idSchema,
  receivedAt: isoDateTime,
  arrivalDate: isoDateTime.nullable(),
  sourceIp: z.string().nullable(),
  authFailure: z.string().nullable(),
  /** The report as stored: addresses' local parts replaced, no subject or body. */
  report: z.record(z.string(), z.unknown()),
});

/** GET /api/domains/{id}/dmarc-reports */
export const receivedReportsSchema = z.object({
  reports: z.array(receivedReportSchema),
  failureReports: z.array(failureReportSummarySchema),
});
export type ReceivedReports = z.infer<typeof receivedReportsSchema>;
