import { z } from './zod.js';
import { alertEventSchema } from './entities/alert.js';
import { scanTriggerSchema } from './entities/scan.js';
import { domainNameSchema } from './validation.js';

/**
 * Queues and their jobs, shared by producers and consumers. Payloads are re-validated when a job is
 * consumed because a job may outlive the deploy that queued it. Only jobs that something consumes are
 * listed: a job nobody consumes would pile up in Redis.
 */
export const QueueName = {
  Scan: 'scan',
  Maintenance: 'maintenance',
  /** Alert delivery: fan-out per alert, then one job per alert, event and channel. */
  Notify: 'notify',
  /** Report generation, and the automated reports' schedule. */
  Report: 'report',
  /** Mail the intake received (reports, test messages): read, stored, named. */
  Intake: 'intake',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

/**
 * The service whose worker consumes each queue. One per queue: a BullMQ worker takes every job of its
 * queue, so two services sharing one would take each other's jobs. `createJobWorker` refuses to start
 * unless its handlers cover every job of its queue.
 */
export const queueConsumer = {
  [QueueName.Scan]: 'scanner',
  [QueueName.Maintenance]: 'domains',
  [QueueName.Notify]: 'domains',
  [QueueName.Report]: 'reports',
  [QueueName.Intake]: 'intake',
} as const satisfies Record<QueueName, string>;

export const JobName = {
  ScanDomain: 'scan-domain',
  ScanSampleDomain: 'scan-sample-domain',
  SweepDueDomains: 'sweep-due-domains',
  PurgeDeletedDomains: 'purge-deleted-domains',
  /** Nightly: expired or revoked sessions, used or expired reset tokens, sample domains not viewed for 30 days. */
  NightlyCleanUp: 'nightly-clean-up',
  /** Nightly: scan history's month partitions created ahead, and those past the longest plan's history dropped. */
  MaintainHistory: 'maintain-history',
  /** A sign-up with `quickCheckDomain`: the domains service adds that domain and queues its first scan. */
  ProvisionSignupDomain: 'provision-signup-domain',
  /** Every few minutes: each block list asked about its RFC 5782 test points; a list answering wrongly is set aside. */
  ProbeBlocklists: 'probe-blocklists',
  /** Daily at 02:00 UTC: each active paid domain's reputation point of the day, from its latest scan. */
  RecalculateReputation: 'recalculate-reputation',
  /** An alert raised or resolved: finds the channels its owner enabled and queues one delivery each. */
  SendAlert: 'send-alert',
  /** One alert event to one channel; retried with backoff, sent at most once (a delivery row per channel). */
  DeliverAlert: 'deliver-alert',
  /** Every minute: alerts whose `send-alert` job was lost (Redis restarted, the scanner died after commit). */
  SweepUnsentAlerts: 'sweep-unsent-alerts',
  /** Daily: one mail per user who chose a digest, listing the day's alerts. */
  SendAlertDigests: 'send-alert-digests',
  /** Builds one report's document (and PDF) from stored results; mails it when it is an automated one. */
  GenerateReport: 'generate-report',
  /** Daily: one automated report per active domain of each paid user whose period has none yet. */
  ScheduleAutomatedReports: 'schedule-automated-reports',
  /** One received message or upload (stored first, so a lost job loses nothing): its reports read and stored once. */
  ReadIntakeMessage: 'read-intake-message',
  /** Every minute: messages stored but not read for a while (their job was lost with Redis, say), queued again. */
  SweepUnreadIntakeMessages: 'sweep-unread-intake-messages',
  /** Every minute: source addresses of stored reports not named yet (or named long ago) get a name. */
  NameMailSources: 'name-mail-sources',
  /** Daily: mail-flow rows past each plan's retention, report sources past theirs, next months' partitions. */
  PruneMailFlow: 'prune-mail-flow',
  /** Hourly: the mail-flow alerts (new sender, failure spike, reports stopped, TLS-RPT failures) of domains with new reports. */
  CheckMailFlowAlerts: 'check-mail-flow-alerts',
  /** A test message the intake received: the scanner reads it end to end (its DNS, SPF and block-list engines). */
  AnalyseMailTest: 'analyse-mail-test',
  /** Every minute: test messages received but not analysed for a while (their job was lost), queued again. */
  SweepUnanalysedMailTests: 'sweep-unanalysed-mail-tests',
  /**
   * One domain's sender requirements judged again because evidence changed (a scan completed, a test
   * message was analysed, an aggregate report was read); a requirement turning from met to unmet raises an alert.
   */
  RefreshSenderRequirements: 'refresh-sender-requirements',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

export const scanDomainJob = z.object({
  scanId: z.string().uuid(),
  domainId: z.number().int().positive(),
  /** What asked for the scan: the scheduler, a user, or the blacklist-only re-check. */
  trigger: scanTriggerSchema,
});
export const scanSampleDomainJob = z.object({ sampleDomainId: z.number().int().positive() });
export const sweepDueDomainsJob = z.object({});
export const purgeDeletedDomainsJob = z.object({});
export const nightlyCleanUpJob = z.object({});
export const maintainHistoryJob = z.object({});
export const provisionSignupDomainJob = z.object({
  userId: z.number().int().positive(),
  /** Normalised by the registration schema already; checked again as the consumer reads it. */
  domain: domainNameSchema,
});

export const recalculateReputationJob = z.object({});
export const probeBlocklistsJob = z.object({});
export const sendAlertJob = z.object({ alertId: z.number().int().positive(), event: alertEventSchema });
/** `email`, a service of the integrations list (`slack`, `pagerduty`, `constant contact`…) or `webhook:<id>`. */
export const alertChannelSchema = z
  .string()
  .regex(/^(email|slack|teams|discord|zapier|pagerduty|mailchimp|sendgrid|hubspot|constant contact|webhook:[1-9]\d*)$/, 'Unknown channel');
export type AlertChannel = z.infer<typeof alertChannelSchema>;
export const deliverAlertJob = sendAlertJob.extend({ channel: alertChannelSchema });
export const sweepUnsentAlertsJob = z.object({});
export const sendAlertDigestsJob = z.object({});
export const generateReportJob = z.object({ reportId: z.number().int().positive() });
export const scheduleAutomatedReportsJob = z.object({});
export const readIntakeMessageJob = z.object({ messageId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const sweepUnreadIntakeMessagesJob = z.object({});
export const nameMailSourcesJob = z.object({});
export const pruneMailFlowJob = z.object({});
export const checkMailFlowAlertsJob = z.object({});
export const analyseMailTestJob = z.object({ testId: z.number().int().positive() });
export const sweepUnanalysedMailTestsJob = z.object({});
export const refreshSenderRequirementsJob = z.object({ domainId: z.number().int().positive() });

export const jobPayloads = {
  [JobName.ScanDomain]: scanDomainJob,
  [JobName.ScanSampleDomain]: scanSampleDomainJob,
  [JobName.SweepDueDomains]: sweepDueDomainsJob,
  [JobName.PurgeDeletedDomains]: purgeDeletedDomainsJob,
  [JobName.NightlyCleanUp]: nightlyCleanUpJob,
  [JobName.MaintainHistory]: maintainHistoryJob,
  [JobName.ProvisionSignupDomain]: provisionSignupDomainJob,
  [JobName.RecalculateReputation]: recalculateReputationJob,
  [JobName.ProbeBlocklists]: probeBlocklistsJob,
  [JobName.SendAlert]: sendAlertJob,
  [JobName.DeliverAlert]: deliverAlertJob,
  [JobName.SweepUnsentAlerts]: sweepUnsentAlertsJob,
  [JobName.SendAlertDigests]: sendAlertDigestsJob,
  [JobName.GenerateReport]: generateReportJob,
  [JobName.ScheduleAutomatedReports]: scheduleAutomatedReportsJob,
  [JobName.ReadIntakeMessage]: readIntakeMessageJob,
  [JobName.SweepUnreadIntakeMessages]: sweepUnreadIntakeMessagesJob,
  [JobName.NameMailSources]: nameMailSourcesJob,
  [JobName.PruneMailFlow]: pruneMailFlowJob,
  [JobName.CheckMailFlowAlerts]: checkMailFlowAlertsJob,
  [JobName.AnalyseMailTest]: analyseMailTestJob,
  [JobName.SweepUnanalysedMailTests]: sweepUnanalysedMailTestsJob,
  [JobName.RefreshSenderRequirements]: refreshSenderRequirementsJob,
} satisfies Record<JobName, z.ZodType>;

export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloads)[N]>;

/** Which queue carries each job. */
export const jobQueue = {
  [JobName.ScanDomain]: QueueName.Scan,
  [JobName.ScanSampleDomain]: QueueName.Scan,
  [JobName.SweepDueDomains]: QueueName.Scan,
  [JobName.PurgeDeletedDomains]: QueueName.Maintenance,
  [JobName.NightlyCleanUp]: QueueName.Maintenance,
  [JobName.MaintainHistory]: QueueName.Maintenance,
  [JobName.ProvisionSignupDomain]: QueueName.Maintenance,
  [JobName.RecalculateReputation]: QueueName.Scan,
  [JobName.ProbeBlocklists]: QueueName.Scan,
  [JobName.SendAlert]: QueueName.Notify,
  [JobName.DeliverAlert]: QueueName.Notify,
  [JobName.SweepUnsentAlerts]: QueueName.Notify,
  [JobName.SendAlertDigests]: QueueName.Notify,
  [JobName.GenerateReport]: QueueName.Report,
  [JobName.ScheduleAutomatedReports]: QueueName.Report,
  [JobName.ReadIntakeMessage]: QueueName.Intake,
  [JobName.SweepUnreadIntakeMessages]: QueueName.Intake,
  [JobName.NameMailSources]: QueueName.Intake,
  [JobName.PruneMailFlow]: QueueName.Intake,
  [JobName.CheckMailFlowAlerts]: QueueName.Intake,
  [JobName.AnalyseMailTest]: QueueName.Scan,
  [JobName.SweepUnanalysedMailTests]: QueueName.Intake,
  [JobName.RefreshSenderRequirements]: QueueName.Intake,
} as const satisfies Record<JobName, QueueName>;

/** The jobs one queue carries: its consumer's handlers must cover exactly these. */
export type QueueJob<Q extends QueueName> = { [N in JobName]: (typeof jobQueue)[N] extends Q ? N : never }[JobName];

export function jobsOfQueue<Q extends QueueName>(queue: Q): QueueJob<Q>[] {
  return (Object.keys(jobQueue) as JobName[]).filter((name): name is QueueJob<Q> => jobQueue[name] === queue);
}

/** One provisioning job per user, so a retried registration step never queues it twice. */
export function signupDomainJobId(userId: number): string {
  return `signup-domain-${userId}`;
}

/** Retries with exponential backoff and jitter; finished jobs kept briefly for inspection. */
export const defaultJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000, jitter: 0.5 },
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 24 * 3600 },
} as const;

/** BullMQ ids cannot contain ':'. */
export function scanDedupId(domainId: number): string {
  return `scan-${domainId}`;
}

/**
 * Options of every `scan-domain` job, whoever queues it (scheduler, manual scan, signup), so that a
 * domain with a scan waiting or running is never queued twice. The job id is the scan id (a retried
 * `add` of the same scan is a no-op) and `deduplication.id` comes from the domain. Deduplication
 * rather than a per-domain job id because BullMQ keeps finished jobs for a while
 * (`removeOnComplete: { age: 3600 }`) and a kept id would block the next scheduled scan of an
 * advanced domain (every 15 minutes); the deduplication key is released when the job finishes.
 * `add` returns the pending job's id when deduplicated, telling the caller its new scan row is moot.
 */
export function scanJobOptions(scanId: string, domainId: number): { jobId: string; deduplication: { id: string } } {
  return { jobId: scanId, deduplication: { id: scanDedupId(domainId) } };
}

/** One fan-out per alert event: a retried scan or a sweep that finds it again adds nothing. */
export function sendAlertJobId(alertId: number, event: 'raised' | 'resolved'): string {
  return `alert-${alertId}-${event}`;
}

/** One delivery job per alert, event and channel (BullMQ ids cannot contain ':'). */
export function deliverAlertJobId(alertId: number, event: 'raised' | 'resolved', channel: string): string {
  return `deliver-${alertId}-${event}-${channel.replace(/[: ]/g, '-')}`;
}

/**
 * Deliveries are retried for 24 hours: 14 attempts with exponential waits from 10.55 s (10.55 s, 21 s …
 * 24 h 0 min in all: 10.55 s × (2^13 − 1) = 86,415 s), then the delivery is recorded as failed.
 */
export const DELIVERY_FIRST_RETRY_MS = 10_550;
export const deliveryJobOptions = {
  attempts: 14,
  backoff: { type: 'exponential', delay: DELIVERY_FIRST_RETRY_MS },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** One generation job per report: a retried request or a second schedule run adds nothing. */
export function generateReportJobId(reportId: number): string {
  return `report-${reportId}`;
}

/** One read per stored message: a re-queue by the sweep while the first job waits adds nothing. */
export function readIntakeMessageJobId(messageId: number): string {
  return `intake-message-${messageId}`;
}

/** One analysis per test message: the sweep re-queueing a test whose job still waits adds nothing. */
export function analyseMailTestJobId(testId: number): string {
  return `mail-test-${testId}`;
}

/**
 * Options of every `refresh-sender-requirements` job: one waiting per domain (a burst of reports or a
 * scan and a test together judge once), released when it finishes so the next change is judged again.
 */
export function refreshSenderRequirementsJobOptions(domainId: number): { deduplication: { id: string } } {
  return { deduplication: { id: `sender-requirements-${domainId}` } };
}
