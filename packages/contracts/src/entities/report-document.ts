/**
 * The report itself: one model, built by the reports service from stored scan results, which every
 * format renders (PDF, HTML, text) and which the JSON download is verbatim. Versioned: a consumer
 * keys on `schemaVersion`, and a change that is not purely additive bumps it.
 */
import { z } from '../zod.js';
import { senderRequirementsSchema } from './sender-requirements.js';
import { idSchema, isoDateTime } from '../common.js';
import { checkStatusSchema, checkTypeSchema, findingSeveritySchema } from './check.js';
import { dmarcPolicySchema, isoDay } from './mail-flow.js';
import { REPUTATION_WEIGHTS } from './reputation.js';
export { REPORT_TREND_WINDOWS } from './report-rules.js';

export const REPORT_SCHEMA_VERSION = 1;
export const REPORT_SCHEMA_ID = 'https://sendwell.app/schemas/report/v1.json';

/** Actions the summary report lists. */
export const SUMMARY_ACTION_COUNT = 3;

export const reportKinds = ['full', 'summary'] as const;
export const reportKindSchema = z.enum(reportKinds);
export type ReportKind = z.infer<typeof reportKindSchema>;

export const reportFindingSchema = z.object({
  code: z.string(),
  severity: findingSeveritySchema,
  message: z.string(),
  /** The clause it rests on, e.g. 'RFC 7489 §6.3'; null when none applies. */
  rfc: z.string().nullable(),
  fix: z.string().nullable(),
});
export type ReportFinding = z.infer<typeof reportFindingSchema>;

export const reportCheckSchema = z.object({
  type: checkTypeSchema,
  title: z.string(),
  status: checkStatusSchema,
  /** The record as published (SPF TXT, DMARC TXT, DKIM keys by selector, certificate issuer…). */
  published: z.array(z.object({ label: z.string(), value: z.string() })),
  message: z.string().nullable(),
  /** Findings, most severe first. */
  findings: z.array(reportFindingSchema),
  /** Points of the score this check's part holds and could hold (the contracts' part weights). */
  points: z.object({ earned: z.number().min(0), max: z.number().positive() }),
});
export type ReportCheck = z.infer<typeof reportCheckSchema>;

const part = (max: number) => z.object({ score: z.number().min(0).max(max), max: z.literal(max) });

export const reportOverallSchema = z.object({
  /** The domain's status as the app shows it: healthy, warning, critical, pending or unknown. */
  status: z.string(),
  score: z.number().int().min(0).max(100).nullable(),
  /** Excellent, Good, Fair or Poor (the detail screens' labels); null without a score. */
  label: z.string().nullable(),
  trend: z.enum(['improving', 'declining', 'stable']).nullable(),
  previousScore: z.number().int().min(0).max(100).nullable(),
  breakdown: z
    .object({
      emailAuthentication: part(REPUTATION_WEIGHTS.emailAuthentication),
      securityDeliverability: part(REPUTATION_WEIGHTS.securityDeliverability),
      configurationHealth: part(REPUTATION_WEIGHTS.configurationHealth),
    })
    .nullable(),
});
export type ReportOverall = z.infer<typeof reportOverallSchema>;

export const reportBlacklistSchema = z.object({
  lists: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['clean', 'listed', 'unknown']),
      removalUrl: z.string().nullable(),
      lookupUrl: z.string().nullable(),
    }),
  ),
  addresses: z.array(z.object({ ip: z.string(), source: z.string().nullable(), listedOn: z.array(z.object({ list: z.string(), removalUrl: z.string().nullable() })) })),
  counts: z.object({ listed: z.number().int().min(0), clean: z.number().int().min(0), unknown: z.number().int().min(0) }),
});
export type ReportBlacklist = z.infer<typeof reportBlacklistSchema>;

/** One point per day (the day's last scan), oldest first. */
export const reportTrendPointSchema = z.object({
  day: z.iso.date(),
  score: z.number().int().min(0).max(100).nullable(),
  status: z.string().nullable(),
  checks: z.partialRecord(checkTypeSchema, checkStatusSchema),
});
export type ReportTrendPoint = z.infer<typeof reportTrendPointSchema>;

export const reportDnsChangeSchema = z.object({
  at: isoDateTime,
  record: z.string(),
  impact: z.enum(['weakens', 'mail', 'other']),
  summary: z.string(),
});
export type ReportDnsChange = z.infer<typeof reportDnsChangeSchema>;

export const reportTrendsSchema = z.object({
  /** The longest window's days; shorter windows are its tail. */
  days: z.number().int().positive(),
  points: z.array(reportTrendPointSchema),
  dnsChanges: z.array(reportDnsChangeSchema),
  scansInWindow: z.number().int().min(0),
});
export type ReportTrends = z.infer<typeof reportTrendsSchema>;

export const reportActionSchema = z.object({
  rank: z.number().int().positive(),
  check: checkTypeSchema,
  title: z.string(),
  detail: z.string(),
  /** Points the score is expected to gain once fixed (the check's part weight minus what it earns now). */
  expectedGain: z.number().min(0),
  /** Path of the in-app fixing guide, when one exists for this check. */
  guidePath: z.string().nullable(),
});
export type ReportAction = z.infer<typeof reportActionSchema>;

/** Days of mail flow a report covers: the last 30 UTC days, today included (the 30-day trend window). */
export const REPORT_MAIL_FLOW_DAYS = 30;
/** Senders a full report lists, busiest first. */
export const REPORT_MAIL_FLOW_SENDERS = 10;
/** TLS-RPT failure types a full report lists, most sessions first. */
export const REPORT_TLS_FAILURE_TYPES = 5;

/** A share between 0 and 1, rounded to 4 places; null where nothing was counted. */
const reportShare = z.number().min(0).max(1).nullable();

export const reportMailSenderSchema = z.object({
  /** The catalogue service's name when the source was matched to one, else its confirmed host, else its address. */
  name: z.string(),
  serviceId: z.string().nullable(),
  /** Source addresses grouped under the name. */
  addresses: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  /** Share of its mail passing DMARC (SPF or DKIM aligned). */
  dmarcPass: reportShare,
});
export type ReportMailSender = z.infer<typeof reportMailSenderSchema>;

/**
 * What the DMARC aggregate and TLS-RPT reports received for the domain say about its mail in the
 * report's window (the mail-flow screen's figures, summed the same way). In a summary report only the
 * totals: `senders` is empty and `policy` and `tls` are null.
 */
export const reportMailFlowSchema = z.object({
  from: isoDay,
  to: isoDay,
  /** Aggregate reports whose period overlaps the window. */
  reports: z.number().int().nonnegative(),
  /** dmarcPass + dmarcFail + forwarded. */
  messages: z.number().int().nonnegative(),
  dmarcPass: z.number().int().nonnegative(),
  /** Failing DMARC and not relayed. */
  dmarcFail: z.number().int().nonnegative(),
  /** Failing DMARC but relayed by a forwarder or list (the reporter's override, a catalogue forwarder): not counted as failures. */
  forwarded: z.number().int().nonnegative(),
  /** dmarcPass / messages. */
  passRate: reportShare,
  /** Senders of the window, of which `senders` lists the busiest. */
  senderCount: z.number().int().nonnegative(),
  senders: z.array(reportMailSenderSchema),
  /** The DMARC policy the newest aggregate report up to the window's end says was published; null without one. */
  policy: z
    .object({
      p: dmarcPolicySchema.nullable(),
      sp: dmarcPolicySchema.nullable(),
      pct: z.number().int().min(0).max(100).nullable(),
      /** DMARCbis `t=y`: receivers apply one step less. */
      testing: z.boolean(),
      reporter: z.string(),
      /** The end of that report's period. */
      reportedAt: isoDateTime,
    })
    .nullable(),
  /** TLS-RPT sessions in the window; null when no TLS report covers it. */
  tls: z
    .object({
      reports: z.number().int().nonnegative(),
      successfulSessions: z.number().int().nonnegative(),
      failedSessions: z.number().int().nonnegative(),
      /** Failed sessions by result type (RFC 8460 §4.3), most first. */
      failures: z.array(z.object({ resultType: z.string(), sessions: z.number().int().nonnegative() })),
    })
    .nullable(),
});
export type ReportMailFlow = z.infer<typeof reportMailFlowSchema>;

export const reportDocumentSchema = z.object({
  $schema: z.literal(REPORT_SCHEMA_ID),
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  kind: reportKindSchema,
  reportId: idSchema,
  /** automated, full or summary: how the report was asked for. */
  reportType: z.string(),
  generatedAt: isoDateTime,
  domain: z.object({ id: idSchema, name: z.string() }),
  /** The scan the report describes; null when the domain has none completed (the report says so). */
  scan: z.object({ id: z.string(), completedAt: isoDateTime, trigger: z.string() }).nullable(),
  overall: reportOverallSchema,
  /** A sentence or two for cards, mails and the summary page. */
  summary: z.string(),
  /** Every check, most impact first; empty in a summary report. */
  checks: z.array(reportCheckSchema),
  blacklist: reportBlacklistSchema.nullable(),
  trends: reportTrendsSchema.nullable(),
  /** Everything worth fixing, most gain first; the summary keeps the top three. */
  actions: z.array(reportActionSchema),
  /**
   * Mail flow in the last REPORT_MAIL_FLOW_DAYS days: null when the plan has no mail flow or no report
   * covers the window. Absent from documents stored before it existed (additive, so still version 1).
   */
  mailFlow: reportMailFlowSchema.nullable().optional(),
  /**
   * The Gmail/Yahoo/Microsoft sender requirements as last judged (the intake keeps the verdict per
   * domain); null when never judged. Absent from documents stored before it existed (additive).
   */
  senderRequirements: senderRequirementsSchema.nullable().optional(),
});
export type ReportDocument = z.infer<typeof reportDocumentSchema>;

/** The check names reports print. */
export const reportCheckTitles: Record<z.infer<typeof checkTypeSchema>, string> = {
  spf: 'SPF',
  dkim: 'DKIM',
  dmarc: 'DMARC',
  blacklist: 'Blacklists',
  ssl_certificate: 'SSL certificate',
  dns_performance: 'DNS performance',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS reporting',
  smtp: 'MX STARTTLS',
  reverse_dns: 'Reverse DNS',
  dane: 'DANE',
  bimi: 'BIMI',
  dnssec: 'DNSSEC',
};
