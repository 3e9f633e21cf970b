/**
 * The report itself: one model, built by the reports service from stored scan results, which every
 * format renders (PDF, HTML, text) and which the JSON download is verbatim. Versioned: a consumer
 * keys on `schemaVersion`, and a change that is not purely additive bumps it.
 */
import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { checkStatusSchema, checkTypeSchema, findingSeveritySchema } from './check.js';
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
