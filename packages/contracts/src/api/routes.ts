import type { z } from 'zod';
import { markAlertReadParams, listAlertsQuery, updateNotificationPreferencesBody } from './alerts.js';
import { createSubscriptionBody, invoiceIdParams, updatePaymentMethodBody, updateSubscriptionBody } from './billing.js';
import { forgotPasswordBody, loginBody, registerBody, resetPasswordBody, verifyEmailQuery } from './auth.js';
import { createDomainBody, domainIdParams, domainNameParams, domainScanParams, restoreDomainBody, scanIdParams } from './domains.js';
import { emailVerifyBatchBody, emailVerifyBody } from './email-verify.js';
import { createWebhookBody, integrationServiceParams, saveIntegrationBody, webhookIdParams } from './integrations.js';
import { downloadReportQuery, generateReportsBody, reportIdParams } from './reports.js';
import { mailFlowSettingsBody, mailFlowWindowQuery, receivedReportParams, tlsRptTokenParams } from './mail-flow.js';
import { mailTestIdParams } from './mail-tests.js';
import { sampleDomainParams } from './sample-domains.js';
import { changePasswordBody, deleteUserBody, updateCurrencyBody, updateProfileBody, updateDateFormatBody, updateTimezoneBody } from './user.js';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One call the services serve, with the schemas its input is checked against. */
export interface ApiRoute {
  method: ApiMethod;
  /** As the service registers it: `:name` for a path parameter. */
  path: string;
  /** The service that serves it (the gateway forwards by its route table). */
  service: 'auth' | 'domains' | 'billing' | 'reports' | 'intake';
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** A body taken as bytes (a report file as its sender sent it), in one of these content types. */
  rawBody?: readonly string[];
}

/** What a report upload or a TLS-RPT submission may be sent as; anything else is read by sniffing its bytes. */
export const REPORT_FILE_CONTENT_TYPES = [
  'application/xml',
  'text/xml',
  'application/gzip',
  'application/zip',
  'message/rfc822',
  'application/tlsrpt+json',
  'application/tlsrpt+gzip',
  'application/octet-stream',
] as const;
export const TLS_RPT_CONTENT_TYPES = ['application/tlsrpt+json', 'application/tlsrpt+gzip'] as const;

/**
 * Every call the services serve, as data: the API fuzz test (`tests/api-fuzz`) sends malformed input
 * to each one, and checks this list against the services' real route tables, so a new route cannot be
 * left out.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'POST', path: '/api/auth/register', service: 'auth', body: registerBody },
  { method: 'POST', path: '/api/auth/login', service: 'auth', body: loginBody },
  { method: 'POST', path: '/api/auth/logout', service: 'auth' },
  { method: 'POST', path: '/api/auth/forgot-password', service: 'auth', body: forgotPasswordBody },
  { method: 'POST', path: '/api/auth/reset-password-with-token', service: 'auth', body: resetPasswordBody },
  { method: 'GET', path: '/api/auth/verify-email', service: 'auth', querystring: verifyEmailQuery },

  { method: 'GET', path: '/api/user', service: 'auth' },
  { method: 'DELETE', path: '/api/user', service: 'auth', body: deleteUserBody },
  { method: 'GET', path: '/api/user/export', service: 'auth' },
  { method: 'PUT', path: '/api/user/profile', service: 'auth', body: updateProfileBody },
  { method: 'PUT', path: '/api/user/password', service: 'auth', body: changePasswordBody },
  { method: 'PUT', path: '/api/user/timezone', service: 'auth', body: updateTimezoneBody },
  { method: 'PUT', path: '/api/user/date-format', service: 'auth', body: updateDateFormatBody },
  { method: 'PUT', path: '/api/user/currency', service: 'auth', body: updateCurrencyBody },
  { method: 'POST', path: '/api/user/mark-preferences-set', service: 'auth' },
  { method: 'POST', path: '/api/user/dismiss-upgrade-notification', service: 'auth' },

  { method: 'GET', path: '/api/domains', service: 'domains' },
  { method: 'POST', path: '/api/domains', service: 'domains', body: createDomainBody },
  { method: 'GET', path: '/api/domains/deleted', service: 'domains' },
  { method: 'POST', path: '/api/domains/restore', service: 'domains', body: restoreDomainBody },
  { method: 'GET', path: '/api/domains/by-name/:domainName', service: 'domains', params: domainNameParams },
  { method: 'GET', path: '/api/domains/name/:domainName/checks', service: 'domains', params: domainNameParams },
  { method: 'GET', path: '/api/domains/name/:domainName/dns-records', service: 'domains', params: domainNameParams },
  { method: 'GET', path: '/api/domains/:id', service: 'domains', params: domainIdParams },
  { method: 'DELETE', path: '/api/domains/:id', service: 'domains', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/checks', service: 'domains', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/reputation', service: 'domains', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/reputation/history', service: 'domains', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/last-scan', service: 'domains', params: domainIdParams },
  { method: 'POST', path: '/api/domains/:id/scan', service: 'domains', params: domainIdParams },
  { method: 'POST', path: '/api/domains/:id/check', service: 'domains', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/scans/:scanId', service: 'domains', params: domainScanParams },
  { method: 'GET', path: '/api/domain-checks/history', service: 'domains' },
  { method: 'GET', path: '/api/domain-checks/:scanId', service: 'domains', params: scanIdParams },
  { method: 'GET', path: '/api/alerts', service: 'domains', querystring: listAlertsQuery },
  { method: 'POST', path: '/api/alerts/mark-all-read', service: 'domains' },
  { method: 'POST', path: '/api/alerts/:id/mark-read', service: 'domains', params: markAlertReadParams },
  { method: 'GET', path: '/api/alerts/preferences', service: 'domains' },
  { method: 'PUT', path: '/api/alerts/preferences', service: 'domains', body: updateNotificationPreferencesBody },
  { method: 'GET', path: '/api/integrations', service: 'domains' },
  { method: 'POST', path: '/api/integrations', service: 'domains', body: saveIntegrationBody },
  { method: 'POST', path: '/api/integrations/:service/test', service: 'domains', params: integrationServiceParams },
  { method: 'DELETE', path: '/api/integrations/:service', service: 'domains', params: integrationServiceParams },
  { method: 'GET', path: '/api/integrations/webhooks', service: 'domains' },
  { method: 'POST', path: '/api/integrations/webhooks', service: 'domains', body: createWebhookBody },
  { method: 'DELETE', path: '/api/integrations/webhooks/:id', service: 'domains', params: webhookIdParams },
  { method: 'POST', path: '/api/integrations/webhooks/:id/test', service: 'domains', params: webhookIdParams },
  { method: 'GET', path: '/api/sample-domains/:domain', service: 'domains', params: sampleDomainParams },
  { method: 'POST', path: '/api/email-verify', service: 'domains', body: emailVerifyBody },
  { method: 'POST', path: '/api/email-verify/batch', service: 'domains', body: emailVerifyBatchBody },

  { method: 'POST', path: '/api/subscription', service: 'billing', body: createSubscriptionBody },
  { method: 'POST', path: '/api/subscription/update', service: 'billing', body: updateSubscriptionBody },
  { method: 'POST', path: '/api/subscription/cancel', service: 'billing' },
  { method: 'GET', path: '/api/subscription/status', service: 'billing' },
  { method: 'POST', path: '/api/sync-subscription', service: 'billing' },
  { method: 'GET', path: '/api/payment-method', service: 'billing' },
  { method: 'POST', path: '/api/setup-intent', service: 'billing' },
  { method: 'POST', path: '/api/update-payment-method', service: 'billing', body: updatePaymentMethodBody },
  { method: 'GET', path: '/api/billing/history', service: 'billing' },
  { method: 'GET', path: '/api/billing/config', service: 'billing' },
  { method: 'GET', path: '/api/billing/invoices/:id/pdf', service: 'billing', params: invoiceIdParams },
  { method: 'POST', path: '/api/webhooks/stripe', service: 'billing' },

  { method: 'GET', path: '/api/domains/:id/report-addresses', service: 'intake', params: domainIdParams },
  { method: 'PUT', path: '/api/domains/:id/mail-flow/settings', service: 'intake', params: domainIdParams, body: mailFlowSettingsBody },
  { method: 'GET', path: '/api/domains/:id/mail-flow', service: 'intake', params: domainIdParams, querystring: mailFlowWindowQuery },
  { method: 'GET', path: '/api/domains/:id/tls-reports', service: 'intake', params: domainIdParams, querystring: mailFlowWindowQuery },
  { method: 'GET', path: '/api/domains/:id/sender-requirements', service: 'intake', params: domainIdParams },
  { method: 'GET', path: '/api/domains/:id/dmarc-reports', service: 'intake', params: domainIdParams },
  { method: 'POST', path: '/api/domains/:id/dmarc-reports', service: 'intake', params: domainIdParams, rawBody: REPORT_FILE_CONTENT_TYPES },
  { method: 'GET', path: '/api/domains/:id/dmarc-reports/:reportId/source', service: 'intake', params: receivedReportParams },
  { method: 'POST', path: '/api/intake/tls-rpt/:token', service: 'intake', params: tlsRptTokenParams, rawBody: TLS_RPT_CONTENT_TYPES },
  { method: 'POST', path: '/api/mail-tests', service: 'intake' },
  { method: 'GET', path: '/api/mail-tests', service: 'intake' },
  { method: 'GET', path: '/api/mail-tests/:id', service: 'intake', params: mailTestIdParams },
  { method: 'GET', path: '/api/mail-tests/:id/events', service: 'intake', params: mailTestIdParams },

  { method: 'GET', path: '/api/reports', service: 'reports' },
  { method: 'POST', path: '/api/reports/generate', service: 'reports', body: generateReportsBody },
  { method: 'GET', path: '/api/reports/:id', service: 'reports', params: reportIdParams },
  { method: 'GET', path: '/api/reports/:id/download', service: 'reports', params: reportIdParams, querystring: downloadReportQuery },
  { method: 'DELETE', path: '/api/reports/:id', service: 'reports', params: reportIdParams },
];
