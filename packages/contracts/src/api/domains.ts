import { z } from '../zod.js';
import { idParamSchema, isoDateTime, okSchema } from '../common.js';
import { domainCheckSchema, dnsRecordsSchema } from '../entities/check.js';
import { deletedDomainSchema, domainSchema } from '../entities/domain.js';
import { historyDaySchema, historyDomainSchema, lastScanSummarySchema, scanDetailSchema } from '../entities/history.js';
import { isoDay } from '../entities/mail-flow.js';
import { reputationSchema } from '../entities/reputation.js';
import { scanIdSchema, scanSchema, scanStatusSchema } from '../entities/scan.js';
import { domainLimit, MANUAL_SCAN_COOLDOWN_MS, planRules, isPlanType } from '../plans.js';
import { domainNameSchema } from '../validation.js';
import { HISTORY_DAYS_DEFAULT, HISTORY_DAYS_MAX, HISTORY_PAGE_MAX } from '../history-limits.js';

export { HISTORY_DAYS_DEFAULT, HISTORY_DAYS_MAX, HISTORY_DOMAIN_PAGE_DEFAULT, HISTORY_OVERVIEW_MAX, HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from '../history-limits.js';
export { domainRemovedMessage, domainRestoredMessage } from './domain-messages.js';

/** `{id}` of /api/domains/{id}/... */
export const domainIdParams = z.object({ id: idParamSchema });
export type DomainIdParams = z.infer<typeof domainIdParams>;
/** `{domainName}` of /api/domains/by-name/{domainName} and /api/domains/name/{domainName}/... */
export const domainNameParams = z.object({ domainName: domainNameSchema });
export type DomainNameParams = z.infer<typeof domainNameParams>;

/** GET /api/domains: the user's active domains, newest first. */
export const listDomainsAnswer = z.array(domainSchema);
export type ListDomainsAnswer = z.infer<typeof listDomainsAnswer>;

/** GET /api/domains/deleted: deletions still restorable, newest first (the panel shows the last 30 days). */
export const listDeletedDomainsAnswer = z.array(deletedDomainSchema);
export type ListDeletedDomainsAnswer = z.infer<typeof listDeletedDomainsAnswer>;

/** POST /api/domains. Re-adding a domain deleted within 90 days restores it with its history. */
export const createDomainBody = z.object({ name: domainNameSchema });
export type CreateDomainBody = z.infer<typeof createDomainBody>;
export const createDomainAnswer = z.object({
  message: z.string(),
  domain: domainSchema,
  /** The first scan, queued at once. */
  scanId: scanIdSchema.nullable(),
  /** True when the name matched a recently deleted domain and that one came back. */
  restored: z.boolean(),
});
export type CreateDomainAnswer = z.infer<typeof createDomainAnswer>;

/** GET /api/domains/{id} and GET /api/domains/by-name/{domainName} */
export const getDomainAnswer = domainSchema;

/** DELETE /api/domains/{id} */
export const deleteDomainAnswer = okSchema;

/** POST /api/domains/restore */
export const restoreDomainBody = z.object({ name: domainNameSchema });
export type RestoreDomainBody = z.infer<typeof restoreDomainBody>;
export const restoreDomainAnswer = z.object({ message: z.string(), domain: domainSchema });
export type RestoreDomainAnswer = z.infer<typeof restoreDomainAnswer>;

/** POST /api/domains/{id}/scan: queues a full scan (at most one per 5 minutes per domain). */
export const scanDomainAnswer = z.object({
  scanId: scanIdSchema,
  domainId: z.number().int().positive(),
  status: scanStatusSchema,
  message: z.string(),
});
export type ScanDomainAnswer = z.infer<typeof scanDomainAnswer>;

/** POST /api/domains/{id}/check: queues a blacklist-only re-check. */
export const blacklistCheckAnswer = scanDomainAnswer;
export type BlacklistCheckAnswer = z.infer<typeof blacklistCheckAnswer>;

/** GET /api/domains/{id}/checks and GET /api/domains/name/{domainName}/checks: newest first. */
export const listChecksAnswer = z.array(domainCheckSchema);
export type ListChecksAnswer = z.infer<typeof listChecksAnswer>;

/** GET /api/domains/name/{domainName}/dns-records */
export const dnsRecordsAnswer = dnsRecordsSchema;
export type DnsRecordsAnswer = z.infer<typeof dnsRecordsAnswer>;

/** GET /api/domains/{id}/reputation (standard and advanced): null until the first score is calculated. */
export const reputationAnswer = reputationSchema.nullable();
export type ReputationAnswer = z.infer<typeof reputationAnswer>;

/**
 * GET /api/domains/{id}/reputation/history (standard and advanced): the domain's scores, oldest first,
 * at most `REPUTATION_HISTORY_LIMIT` of the most recent ones, for the detail page's score-over-time chart.
 */
export const REPUTATION_HISTORY_LIMIT = 90;
export const reputationHistoryAnswer = z.array(reputationSchema);
export type ReputationHistoryAnswer = z.infer<typeof reputationHistoryAnswer>;

/** GET /api/domains/{id}/last-scan (also for a deleted domain). */
export const lastScanAnswer = lastScanSummarySchema;
export type LastScanAnswer = z.infer<typeof lastScanAnswer>;


/**
 * GET /api/domain-checks/history (paid plans): newest first, one page per domain. Without `domainId`
 * every domain (active and restorable deleted ones) with its newest scans; with it, that domain's page
 * after `before`. `from`/`to` bound the scans' times (inclusive).
 */
export const historyQuery = z
  .object({
    domainId: idParamSchema.optional(),
    before: z.string().max(200, 'Invalid cursor').optional().describe('The nextCursor of the previous page'),
    from: isoDateTime.optional().describe('Oldest scan time to include'),
    to: isoDateTime.optional().describe('Newest scan time to include'),
    limit: z.coerce.number({ error: 'Invalid limit' }).int('Invalid limit').min(1, 'Invalid limit').max(HISTORY_PAGE_MAX, 'Invalid limit').optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), { message: '`from` must not be after `to`', path: ['from'] });
export type HistoryQuery = z.infer<typeof historyQuery>;
export const domainHistoryAnswer = z.array(historyDomainSchema);
export type DomainHistoryAnswer = z.infer<typeof domainHistoryAnswer>;


/** GET /api/domains/{id}/history/days (paid plans): one point per UTC day with a completed scan, oldest first. */
export const historyDaysQuery = z
  .object({
    from: isoDay.optional().describe(`First day, YYYY-MM-DD (UTC); absent, the ${HISTORY_DAYS_DEFAULT} days up to \`to\``),
    to: isoDay.optional().describe('Last day, YYYY-MM-DD (UTC); today when absent'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.to) - Date.parse(q.from) < HISTORY_DAYS_MAX * 86_400_000, {
    message: `The window spans at most ${HISTORY_DAYS_MAX} days`,
    path: ['from'],
  });
export type HistoryDaysQuery = z.infer<typeof historyDaysQuery>;
export const historyDaysAnswer = z.object({ from: isoDay, to: isoDay, days: z.array(historyDaySchema) });
export type HistoryDaysAnswer = z.infer<typeof historyDaysAnswer>;

/** GET /api/domain-checks/{scanId} */
export const scanIdParams = z.object({ scanId: scanIdSchema });
export type ScanIdParams = z.infer<typeof scanIdParams>;
export const scanDetailAnswer = scanDetailSchema;
export type ScanDetailAnswer = z.infer<typeof scanDetailAnswer>;

/**
 * GET /api/domains/{id}/scans/{scanId}: one scan's progress, so the web app can follow a scan it
 * started (queued → running → completed, or failed with a reason safe to show).
 */
export const domainScanParams = z.object({ id: idParamSchema, scanId: scanIdSchema });
export type DomainScanParams = z.infer<typeof domainScanParams>;
export const scanStatusAnswer = scanSchema;
export type ScanStatusAnswer = z.infer<typeof scanStatusAnswer>;

/* Messages the domain calls answer with (part 1 §8, part 2 §8). */
export const DOMAIN_NOT_FOUND = 'Domain not found';
export const SCAN_NOT_FOUND = 'Scan details not found';
/** The client looks for "limited to 1 domain" in this text (part 1 §8). */
export const FREE_DOMAIN_LIMIT_MESSAGE = 'Your free plan is limited to 1 domain. Please upgrade to add more domains.';
export const DOMAIN_EXISTS = 'This domain is already being monitored';
export const DOMAIN_NOT_RESTORABLE = 'This domain cannot be restored. It may have been deleted more than 90 days ago.';
export const SCAN_STARTED_MESSAGE = 'Domain scan has been started. Results will appear shortly.';
export const BLACKLIST_CHECK_STARTED_MESSAGE = 'Blacklist check has been started. Results will appear shortly.';
export const DOMAIN_ADDED_MESSAGE = 'Domain added. The first scan has been started.';
export const DOMAIN_DETAIL_PLAN_MESSAGE = 'Domain details are available on paid plans. Please upgrade to view them.';
export const HISTORY_PLAN_MESSAGE = 'Domain history is available on paid plans. Please upgrade to view it.';
export const SCAN_QUEUE_UNAVAILABLE = 'The scan could not be started right now. Please try again in a few minutes.';
export const REPUTATION_PLAN_MESSAGE = 'Reputation scores are available on Standard and Advanced plans.';

/** The refusal when adding a domain over the plan limit (deleted domains still in their window count). */
export function domainLimitMessage(plan: string): string {
  const limit = domainLimit(plan);
  if (plan === 'free' || plan === 'onetime') return FREE_DOMAIN_LIMIT_MESSAGE;
  if (!isPlanType(plan) || limit === 0) return 'Your plan does not include domain monitoring. Please choose a plan to add domains.';
  const noun = limit === 1 ? 'domain' : 'domains';
  return `Your ${planRules[plan].label} plan is limited to ${limit} ${noun}. Recently deleted domains count toward this limit for 90 days. Please upgrade to add more domains.`;
}

/** The refusal of a manual scan inside the cooldown; `retryAfterSeconds` travels beside it. */
export function scanCooldownMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const total = MANUAL_SCAN_COOLDOWN_MS / 60_000;
  return `A domain can be scanned manually once every ${total} minutes. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
