/**
 * Every plan rule of the product, in one place (spec README, "Decisions on the conflicts").
 * The web app shows these and every service enforces them; neither keeps a copy.
 */
export const planTypes = ['free', 'onetime', 'basic', 'standard', 'advanced'] as const;
export type PlanType = (typeof planTypes)[number];

export const paidPlans = ['basic', 'standard', 'advanced'] as const;
export type PaidPlan = (typeof paidPlans)[number];

export const currencies = ['AUD', 'USD', 'CAD'] as const;
export type Currency = (typeof currencies)[number];
export const defaultCurrency: Currency = 'AUD';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface PlanRule {
  label: string;
  /** Active domains plus deleted domains still restorable (part 1 §2 sidebar; README decisions). */
  domainLimit: number;
  /** Interval of scheduled scans; null means manual scans only. */
  scanIntervalMs: number | null;
  /** Stored-report quota; null means the plan stores no reports. */
  reportQuota: number | null;
  /** Cadence of automated reports. */
  automatedReports: 'monthly' | 'fortnightly' | 'weekly' | null;
  isPaid: boolean;
  /**
   * Days of mail-flow data (DMARC aggregate records, TLS-RPT results, failure reports) kept; null means
   * the plan has no mail flow. Basic covers a quarter (a move from p=none to p=reject takes about that),
   * standard half a year, advanced 13 months so a month compares with the same month a year before.
   */
  mailFlowRetentionDays: number | null;
  /** Inbox tests (test messages read end to end) a day, UTC; 0 where the plan has none. */
  mailTestsPerDay: number;
  /**
   * Days of scan history the plan shows (every scan, its checks, DNS changes and scores, in the history
   * screens and the reports); null for a plan without history, which keeps only its latest scan.
   * The windows follow mail flow's: a quarter, half a year, 13 months.
   */
  scanHistoryDays: number | null;
}

export const planRules: Record<PlanType, PlanRule> = {
  free: { label: 'Free Plan', domainLimit: 1, scanIntervalMs: null, reportQuota: null, automatedReports: null, isPaid: false, mailFlowRetentionDays: null, mailTestsPerDay: 0, scanHistoryDays: null },
  onetime: { label: 'One-time Check', domainLimit: 1, scanIntervalMs: null, reportQuota: null, automatedReports: null, isPaid: false, mailFlowRetentionDays: null, mailTestsPerDay: 0, scanHistoryDays: null },
  basic: { label: 'Basic Monitoring', domainLimit: 2, scanIntervalMs: 4 * HOUR, reportQuota: 50, automatedReports: 'monthly', isPaid: true, mailFlowRetentionDays: 90, mailTestsPerDay: 0, scanHistoryDays: 90 },
  standard: { label: 'Standard Monitoring', domainLimit: 5, scanIntervalMs: HOUR, reportQuota: 100, automatedReports: 'fortnightly', isPaid: true, mailFlowRetentionDays: 180, mailTestsPerDay: 20, scanHistoryDays: 180 },
  advanced: { label: 'Advanced Monitoring', domainLimit: 10, scanIntervalMs: 15 * MINUTE, reportQuota: 200, automatedReports: 'weekly', isPaid: true, mailFlowRetentionDays: 395, mailTestsPerDay: 100, scanHistoryDays: 395 },
};

/** The sidebar counter shows 20 for a plan value the product does not know (part 1 §9). */
export const SIDEBAR_UNKNOWN_PLAN_DOMAIN_LIMIT = 20;
/** Manual scans of one domain: at most one per this interval, on every plan. */
export const MANUAL_SCAN_COOLDOWN_MS = 5 * MINUTE;
/** A deleted domain can be restored, with its history, for this long; then it is purged. */
export const DELETED_DOMAIN_RETENTION_DAYS = 90;
/** The Recently Deleted panel lists deletions of this many days. */
export const RECENTLY_DELETED_WINDOW_DAYS = 30;
export const DEFAULT_STORAGE_LIMIT = 100;
/** The longest mail-flow retention of any plan: partitions older than this are dropped whole. */
export const MAX_MAIL_FLOW_RETENTION_DAYS = 395;
/**
 * The longest scan history of any plan: the history maintenance drops a month's partitions once the
 * whole month is older than this (a domain's latest scan is carried forward first). Shorter plans read
 * their own window out of the same partitions.
 */
export const MAX_SCAN_HISTORY_DAYS = 395;
/** A received report's own file (compressed) is kept this long for "view source", on every plan. */
export const REPORT_SOURCE_RETENTION_DAYS = 14;

export function isPlanType(value: unknown): value is PlanType {
  return typeof value === 'string' && (planTypes as readonly string[]).includes(value);
}

export function planLabel(plan: string): string {
  return isPlanType(plan) ? planRules[plan].label : 'Free Plan';
}

/** Domain limit in the overview, list and server checks: 0 for an unknown plan (part 1 §9). */
export function domainLimit(plan: string): number {
  return isPlanType(plan) ? planRules[plan].domainLimit : 0;
}

export function isPaidPlan(plan: string): plan is PaidPlan {
  return (paidPlans as readonly string[]).includes(plan);
}

const rank: Record<PlanType, number> = { free: 0, onetime: 0, basic: 1, standard: 2, advanced: 3 };
function atLeast(plan: string, min: PaidPlan): boolean {
  return isPlanType(plan) && rank[plan] >= rank[min];
}

/** Feature gates, enforced by the services and mirrored by the web app. */
export const features = {
  scheduledScans: (plan: string) => isPaidPlan(plan),
  domainsPage: (plan: string) => isPaidPlan(plan),
  /** A domain's detail page and its by-name reads; the free dashboard's card uses the by-id calls. */
  domainDetail: (plan: string) => isPaidPlan(plan),
  reports: (plan: string) => isPaidPlan(plan),
  support: (plan: string) => isPaidPlan(plan),
  history: (plan: string) => isPaidPlan(plan),
  billingHistory: (plan: string) => isPaidPlan(plan),
  paymentMethodUpdate: (plan: string) => isPaidPlan(plan),
  /** Alerts are recorded for every paid plan, emailed from basic up. */
  alertsRecorded: (plan: string) => isPaidPlan(plan),
  alertEmails: (plan: string) => atLeast(plan, 'basic'),
  reputation: (plan: string) => atLeast(plan, 'standard'),
  /** SSL expiry and DNS change alerts; every plan's scans still run every check. */
  sslAndDnsChangeAlerts: (plan: string) => atLeast(plan, 'standard'),
  inboxPlacement: (plan: string) => atLeast(plan, 'standard'),
  chatIntegrations: (plan: string) => atLeast(plan, 'standard'),
  /** The in-app bell lists alerts for advanced only (part 1 §2). */
  alertsInBell: (plan: string) => atLeast(plan, 'advanced'),
  marketingIntegrations: (plan: string) => atLeast(plan, 'advanced'),
  customWebhooks: (plan: string) => atLeast(plan, 'advanced'),
  prioritySupport: (plan: string) => atLeast(plan, 'advanced'),
  /** DMARC, TLS-RPT and failure reports received and read (issue 25): every paid plan. */
  mailFlow: (plan: string) => isPaidPlan(plan),
  /** The Gmail/Yahoo/Microsoft sender requirements verdict (issue 26): every paid plan; its test-message evidence needs inboxPlacement. */
  senderRequirements: (plan: string) => isPaidPlan(plan),
} as const;

/** Inbox tests a day on the plan (0: none; features.inboxPlacement says whether it has the screen). */
export function mailTestsPerDay(plan: string): number {
  return isPlanType(plan) ? planRules[plan].mailTestsPerDay : 0;
}

/** Days of mail-flow data the plan keeps, 0 for a plan without mail flow. */
export function mailFlowRetentionDays(plan: string): number {
  return isPlanType(plan) ? (planRules[plan].mailFlowRetentionDays ?? 0) : 0;
}
/** Days of scan history the plan shows; 0 for a plan without history. */
export function scanHistoryDays(plan: string): number {
  return isPlanType(plan) ? (planRules[plan].scanHistoryDays ?? 0) : 0;
}

/** The oldest moment of scan history the plan shows at `now`. */
export function scanHistoryStart(plan: string, now: Date): Date {
  return new Date(now.getTime() - scanHistoryDays(plan) * 86_400_000);
}
export type Feature = keyof typeof features;

export interface CurrencyInfo {
  code: Currency;
  name: string;
  symbol: string;
  flag: string;
  /** Monthly price per paid plan, in major units. */
  monthly: Record<PaidPlan, number>;
}

export const currencyCatalogue: Record<Currency, CurrencyInfo> = {
  AUD: { code: 'AUD', name: 'Australian Dollar', symbol: 'A$', flag: '🇦🇺', monthly: { basic: 19, standard: 34.5, advanced: 79 } },
  USD: { code: 'USD', name: 'US Dollar', symbol: 'US$', flag: '🇺🇸', monthly: { basic: 11, standard: 26, advanced: 59 } },
  CAD: { code: 'CAD', name: 'Canadian Dollar', symbol: 'C$', flag: '🇨🇦', monthly: { basic: 15, standard: 36, advanced: 89 } },
};

/** Price in minor units, as Stripe takes it. */
export function monthlyPriceMinor(plan: PaidPlan, currency: Currency): number {
  return Math.round(currencyCatalogue[currency].monthly[plan] * 100);
}

/** Settings shows fixed price strings regardless of currency (part 1 §9). */
export const settingsPriceStrings: Record<PaidPlan, string> = { basic: '$19', standard: '$34.50', advanced: '$79' };
