import { z } from 'zod';

/**
 * A missing field reads "Required", the generic schema message of part 1 §5, rather than zod's
 * type-error text. Every consumer imports this module, so the setting holds wherever schemas run.
 */
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

export * from './common.js';
export * from './errors.js';
export * from './plans.js';
export * from './validation.js';
export * from './jobs.js';
export * from './entities/user.js';
export * from './api/auth.js';
export * from './api/user.js';
export * from './entities/domain.js';
export * from './entities/scan.js';
export * from './entities/check.js';
export * from './entities/dns-snapshot.js';
export * from './entities/reputation.js';
export * from './entities/alert.js';
export * from './entities/report.js';
export * from './entities/report-document.js';
export * from './entities/sample-domain.js';
export * from './entities/inbox-placement.js';
export * from './entities/integration.js';
export * from './entities/webhook.js';
export * from './entities/notification-preferences.js';
export * from './entities/billing.js';
export * from './entities/server-stats.js';
export * from './entities/history.js';
export * from './entities/email-verification.js';
export * from './api/domains.js';
export * from './api/alerts.js';
export * from './api/sample-domains.js';
export * from './api/email-verify.js';
export * from './api/integrations.js';
export * from './api/billing.js';
export * from './api/reports.js';
export * from './api/admin.js';
export * from './api/routes.js';
export * from './display.js';
export * from './openapi/index.js';
export * from './scoring.js';
export * from './report-schedule.js';
