/**
 * Which code writes each table: the account of record (docs/architecture.md "Table ownership"), which
 * table-ownership.test.ts holds the source to. A writer is a folder; `'all'` may set any column but
 * those `reserved` to another writer, a list only those columns.
 *
 * One owner per table is the rule. The second writers below are the exceptions still standing, each
 * with its reason, so that a new one cannot appear without this file (and its review) changing.
 */
export type Writers = Readonly<Record<string, 'all' | readonly string[]>>;

export interface TableOwnership {
  writers: Writers;
  /** Columns only this writer sets, whatever the others may. */
  reserved?: { writer: string; columns: readonly string[] };
  /** Why a table has more than one writer. */
  why?: string;
}

const ENGINE = 'packages/scan-engine/';
/** When and how a domain is scanned, and what its last scan found. */
const SCHEDULING = ['nextScanAt', 'scanPaused', 'lastManualScanAt', 'lastScan', 'scanCount', 'status'];

export const TABLE_OWNERS: Readonly<Record<string, TableOwnership>> = {
  // The scan engine: a scan's life, from request to record, and the alert outbox.
  scans: { writers: { [ENGINE]: 'all' } },
  check_results: { writers: { [ENGINE]: 'all' } },
  dns_snapshots: { writers: { [ENGINE]: 'all' } },
  domain_reputation_history: { writers: { [ENGINE]: 'all' } },
  scan_days: { writers: { [ENGINE]: 'all' } },
  domain_alerts: { writers: { [ENGINE]: 'all' } },
  domains: {
    writers: { 'services/domains/': 'all', [ENGINE]: [...SCHEDULING, 'updatedAt'] },
    reserved: { writer: ENGINE, columns: SCHEDULING },
    why: 'the domains service owns the row (add, delete, restore, purge); when and how it is scanned is the engine\'s',
  },

  // Auth: accounts and sessions.
  users: {
    writers: { 'services/auth/': 'all', 'services/billing/': ['planType', 'stripeCustomerId', 'stripeSubscriptionId', 'currency', 'currencyLocked', 'updatedAt'] },
    why: 'billing applies what Stripe says of the subscription to the account',
  },
  sessions: { writers: { 'services/auth/': 'all', 'services/domains/': 'all' }, why: "the domains service's nightly clean-up deletes expired rows (to move to auth)" },
  password_reset_tokens: { writers: { 'services/auth/': 'all', 'services/domains/': 'all' }, why: "the domains service's nightly clean-up deletes expired rows (to move to auth)" },
  auth_epoch: { writers: {} }, // written by a database trigger only

  // The domains service: notifications, integrations, the landing page's sample domains.
  alert_deliveries: { writers: { 'services/domains/': 'all' } },
  notification_preferences: { writers: { 'services/domains/': 'all' } },
  integrations: { writers: { 'services/domains/': 'all' } },
  webhook_endpoints: { writers: { 'services/domains/': 'all' } },
  sample_domains: {
    writers: { 'services/domains/': 'all', 'services/scanner/': ['status', 'lastScan', 'scanCount', 'updatedAt'] },
    why: 'the scanner records the quick check it ran on a sample domain',
  },
  sample_domain_checks: { writers: { 'services/scanner/': 'all' } },

  // Billing and reports.
  stripe_events: { writers: { 'services/billing/': 'all' } },
  reports: { writers: { 'services/reports/': 'all' } },
  report_documents: { writers: { 'services/reports/': 'all' } },

  // The intake: mail flow, inbox tests, sender requirements.
  intake_messages: { writers: { 'services/intake/': 'all' } },
  mail_report_sources: { writers: { 'services/intake/': 'all' } },
  mail_flow_settings: { writers: { 'services/intake/': 'all' } },
  dmarc_failure_reports: { writers: { 'services/intake/': 'all' } },
  mail_reports: { writers: { 'services/intake/': 'all' } },
  mail_sources: { writers: { 'services/intake/': 'all' } },
  dmarc_records_daily: { writers: { 'services/intake/': 'all' } },
  tls_results_daily: { writers: { 'services/intake/': 'all' } },
  sender_requirement_verdicts: { writers: { 'services/intake/': 'all' } },
  inbox_placement_tests: {
    writers: { 'services/intake/': 'all', 'services/scanner/': ['attempts', 'status', 'results', 'score', 'fromEmail', 'subject', 'domainId', 'error', 'completedAt', 'rawGz'] },
    why: 'the scanner writes the analysis of the test message the intake received, and drops the message once judged',
  },
};
