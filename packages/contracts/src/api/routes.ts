import type { z } from 'zod';
import { accountExportSchema } from './account-export.js';
import { listAlertsAnswer, listAlertsQuery, markAlertReadAnswer, markAlertReadParams, markAllAlertsReadAnswer, notificationPreferencesAnswer, updateNotificationPreferencesAnswer, updateNotificationPreferencesBody } from './alerts.js';
import {
  billingConfigAnswer,
  billingHistoryAnswer,
  cancelSubscriptionAnswer,
  createSubscriptionAnswer,
  createSubscriptionBody,
  invoiceIdParams,
  paymentMethodAnswer,
  setupIntentAnswer,
  stripeWebhookAnswer,
  subscriptionStatusAnswer,
  syncSubscriptionAnswer,
  updatePaymentMethodAnswer,
  updatePaymentMethodBody,
  updateSubscriptionAnswer,
  updateSubscriptionBody,
} from './billing.js';
import {
  authAnswer,
  forgotPasswordAnswer,
  forgotPasswordBody,
  loginBody,
  logoutAnswer,
  registerAnswer,
  registerBody,
  resetPasswordAnswer,
  resetPasswordBody,
  verifyEmailAnswer,
  verifyEmailQuery,
} from './auth.js';
import {
  blacklistCheckAnswer,
  createDomainAnswer,
  createDomainBody,
  deleteDomainAnswer,
  dnsRecordsAnswer,
  domainHistoryAnswer,
  domainIdParams,
  historyDaysAnswer,
  historyDaysQuery,
  historyQuery,
  domainNameParams,
  domainScanParams,
  getDomainAnswer,
  lastScanAnswer,
  listChecksAnswer,
  listDeletedDomainsAnswer,
  listDomainsAnswer,
  reputationAnswer,
  reputationHistoryAnswer,
  restoreDomainAnswer,
  restoreDomainBody,
  scanDetailAnswer,
  scanDomainAnswer,
  scanIdParams,
  scanStatusAnswer,
} from './domains.js';
import { emailVerifyAnswer, emailVerifyBatchAnswer, emailVerifyBatchBody, emailVerifyBody } from './email-verify.js';
import {
  createWebhookAnswer,
  createWebhookBody,
  deleteIntegrationAnswer,
  deleteWebhookAnswer,
  integrationServiceParams,
  listIntegrationsAnswer,
  listWebhooksAnswer,
  saveIntegrationAnswer,
  saveIntegrationBody,
  testIntegrationAnswer,
  webhookIdParams,
} from './integrations.js';
import { deleteReportAnswer, downloadReportQuery, generateReportsAnswer, generateReportsBody, getReportAnswer, listReportsAnswer, reportIdParams } from './reports.js';
import {
  mailFlowAnswer,
  mailFlowSettingsBody,
  mailFlowWindowQuery,
  okMailFlowSettingsAnswer,
  receivedReportParams,
  receivedReportsAnswer,
  reportAddressesAnswer,
  tlsReportsAnswer,
  tlsRptSubmissionAnswer,
  tlsRptTokenParams,
  uploadReportsAnswer,
} from './mail-flow.js';
import { createMailTestAnswer, listMailTestsAnswer, mailTestAnswer, mailTestIdParams } from './mail-tests.js';
import { sampleDomainAnswer, sampleDomainParams } from './sample-domains.js';
import {
  changePasswordBody,
  deleteUserAnswer,
  deleteUserBody,
  getUserAnswer,
  passwordChangedAnswer,
  updateCurrencyBody,
  updateDateFormatBody,
  updateProfileBody,
  updateTimezoneBody,
  userUpdateAnswer,
} from './user.js';
import { senderRequirementsSchema } from '../entities/sender-requirements.js';

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
  /** The schema of its success answer's body, where the answer is JSON (a file or an event stream has none). */
  response?: z.ZodType;
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
 * Every call the services serve, as data, and the one declaration of each: the services register
 * their routes from it (`apiRouteOptions`), the gateway derives its route table from it, the OpenAPI
 * document describes it, and the web client types its answers by it (`ApiAnswer`). The API fuzz test
 * (`tests/api-fuzz`) sends malformed input to each one, and checks this list against the services'
 * real route tables, so a new route cannot be left out.
 */
const ROUTES = [
  { method: 'POST', path: '/api/auth/register', service: 'auth', body: registerBody, response: registerAnswer },
  { method: 'POST', path: '/api/auth/login', service: 'auth', body: loginBody, response: authAnswer },
  { method: 'POST', path: '/api/auth/logout', service: 'auth', response: logoutAnswer },
  { method: 'POST', path: '/api/auth/forgot-password', service: 'auth', body: forgotPasswordBody, response: forgotPasswordAnswer },
  { method: 'POST', path: '/api/auth/reset-password-with-token', service: 'auth', body: resetPasswordBody, response: resetPasswordAnswer },
  { method: 'GET', path: '/api/auth/verify-email', service: 'auth', querystring: verifyEmailQuery, response: verifyEmailAnswer },

  { method: 'GET', path: '/api/user', service: 'auth', response: getUserAnswer },
  { method: 'DELETE', path: '/api/user', service: 'auth', body: deleteUserBody, response: deleteUserAnswer },
  { method: 'GET', path: '/api/user/export', service: 'auth', response: accountExportSchema },
  { method: 'PUT', path: '/api/user/profile', service: 'auth', body: updateProfileBody, response: userUpdateAnswer },
  { method: 'PUT', path: '/api/user/password', service: 'auth', body: changePasswordBody, response: passwordChangedAnswer },
  { method: 'PUT', path: '/api/user/timezone', service: 'auth', body: updateTimezoneBody, response: userUpdateAnswer },
  { method: 'PUT', path: '/api/user/date-format', service: 'auth', body: updateDateFormatBody, response: userUpdateAnswer },
  { method: 'PUT', path: '/api/user/currency', service: 'auth', body: updateCurrencyBody, response: userUpdateAnswer },
  { method: 'POST', path: '/api/user/mark-preferences-set', service: 'auth', response: userUpdateAnswer },
  { method: 'POST', path: '/api/user/dismiss-upgrade-notification', service: 'auth', response: userUpdateAnswer },

  { method: 'GET', path: '/api/domains', service: 'domains', response: listDomainsAnswer },
  { method: 'POST', path: '/api/domains', service: 'domains', body: createDomainBody, response: createDomainAnswer },
  { method: 'GET', path: '/api/domains/deleted', service: 'domains', response: listDeletedDomainsAnswer },
  { method: 'POST', path: '/api/domains/restore', service: 'domains', body: restoreDomainBody, response: restoreDomainAnswer },
  { method: 'GET', path: '/api/domains/by-name/:domainName', service: 'domains', params: domainNameParams, response: getDomainAnswer },
  { method: 'GET', path: '/api/domains/name/:domainName/checks', service: 'domains', params: domainNameParams, response: listChecksAnswer },
  { method: 'GET', path: '/api/domains/name/:domainName/dns-records', service: 'domains', params: domainNameParams, response: dnsRecordsAnswer },
  { method: 'GET', path: '/api/domains/:id', service: 'domains', params: domainIdParams, response: getDomainAnswer },
  { method: 'DELETE', path: '/api/domains/:id', service: 'domains', params: domainIdParams, response: deleteDomainAnswer },
  { method: 'GET', path: '/api/domains/:id/checks', service: 'domains', params: domainIdParams, response: listChecksAnswer },
  { method: 'GET', path: '/api/domains/:id/reputation', service: 'domains', params: domainIdParams, response: reputationAnswer },
  { method: 'GET', path: '/api/domains/:id/reputation/history', service: 'domains', params: domainIdParams, response: reputationHistoryAnswer },
  { method: 'GET', path: '/api/domains/:id/last-scan', service: 'domains', params: domainIdParams, response: lastScanAnswer },
  { method: 'GET', path: '/api/domains/:id/history/days', service: 'domains', params: domainIdParams, querystring: historyDaysQuery, response: historyDaysAnswer },
  { method: 'POST', path: '/api/domains/:id/scan', service: 'domains', params: domainIdParams, response: scanDomainAnswer },
  { method: 'POST', path: '/api/domains/:id/check', service: 'domains', params: domainIdParams, response: blacklistCheckAnswer },
  { method: 'GET', path: '/api/domains/:id/scans/:scanId', service: 'domains', params: domainScanParams, response: scanStatusAnswer },
  { method: 'GET', path: '/api/domain-checks/history', service: 'domains', querystring: historyQuery, response: domainHistoryAnswer },
  { method: 'GET', path: '/api/domain-checks/:scanId', service: 'domains', params: scanIdParams, response: scanDetailAnswer },
  { method: 'GET', path: '/api/alerts', service: 'domains', querystring: listAlertsQuery, response: listAlertsAnswer },
  { method: 'POST', path: '/api/alerts/mark-all-read', service: 'domains', response: markAllAlertsReadAnswer },
  { method: 'POST', path: '/api/alerts/:id/mark-read', service: 'domains', params: markAlertReadParams, response: markAlertReadAnswer },
  { method: 'GET', path: '/api/alerts/preferences', service: 'domains', response: notificationPreferencesAnswer },
  { method: 'PUT', path: '/api/alerts/preferences', service: 'domains', body: updateNotificationPreferencesBody, response: updateNotificationPreferencesAnswer },
  { method: 'GET', path: '/api/integrations', service: 'domains', response: listIntegrationsAnswer },
  { method: 'POST', path: '/api/integrations', service: 'domains', body: saveIntegrationBody, response: saveIntegrationAnswer },
  { method: 'POST', path: '/api/integrations/:service/test', service: 'domains', params: integrationServiceParams, response: testIntegrationAnswer },
  { method: 'DELETE', path: '/api/integrations/:service', service: 'domains', params: integrationServiceParams, response: deleteIntegrationAnswer },
  { method: 'GET', path: '/api/integrations/webhooks', service: 'domains', response: listWebhooksAnswer },
  { method: 'POST', path: '/api/integrations/webhooks', service: 'domains', body: createWebhookBody, response: createWebhookAnswer },
  { method: 'DELETE', path: '/api/integrations/webhooks/:id', service: 'domains', params: webhookIdParams, response: deleteWebhookAnswer },
  { method: 'POST', path: '/api/integrations/webhooks/:id/test', service: 'domains', params: webhookIdParams, response: testIntegrationAnswer },
  { method: 'GET', path: '/api/sample-domains/:domain', service: 'domains', params: sampleDomainParams, response: sampleDomainAnswer },
  { method: 'POST', path: '/api/email-verify', service: 'domains', body: emailVerifyBody, response: emailVerifyAnswer },
  { method: 'POST', path: '/api/email-verify/batch', service: 'domains', body: emailVerifyBatchBody, response: emailVerifyBatchAnswer },

  { method: 'POST', path: '/api/subscription', service: 'billing', body: createSubscriptionBody, response: createSubscriptionAnswer },
  { method: 'POST', path: '/api/subscription/update', service: 'billing', body: updateSubscriptionBody, response: updateSubscriptionAnswer },
  { method: 'POST', path: '/api/subscription/cancel', service: 'billing', response: cancelSubscriptionAnswer },
  { method: 'GET', path: '/api/subscription/status', service: 'billing', response: subscriptionStatusAnswer },
  { method: 'POST', path: '/api/sync-subscription', service: 'billing', response: syncSubscriptionAnswer },
  { method: 'GET', path: '/api/payment-method', service: 'billing', response: paymentMethodAnswer },
  { method: 'POST', path: '/api/setup-intent', service: 'billing', response: setupIntentAnswer },
  { method: 'POST', path: '/api/update-payment-method', service: 'billing', body: updatePaymentMethodBody, response: updatePaymentMethodAnswer },
  { method: 'GET', path: '/api/billing/history', service: 'billing', response: billingHistoryAnswer },
  { method: 'GET', path: '/api/billing/config', service: 'billing', response: billingConfigAnswer },
  { method: 'GET', path: '/api/billing/invoices/:id/pdf', service: 'billing', params: invoiceIdParams },
  { method: 'POST', path: '/api/webhooks/stripe', service: 'billing', response: stripeWebhookAnswer },

  { method: 'GET', path: '/api/domains/:id/report-addresses', service: 'intake', params: domainIdParams, response: reportAddressesAnswer },
  { method: 'PUT', path: '/api/domains/:id/mail-flow/settings', service: 'intake', params: domainIdParams, body: mailFlowSettingsBody, response: okMailFlowSettingsAnswer },
  { method: 'GET', path: '/api/domains/:id/mail-flow', service: 'intake', params: domainIdParams, querystring: mailFlowWindowQuery, response: mailFlowAnswer },
  { method: 'GET', path: '/api/domains/:id/tls-reports', service: 'intake', params: domainIdParams, querystring: mailFlowWindowQuery, response: tlsReportsAnswer },
  { method: 'GET', path: '/api/domains/:id/sender-requirements', service: 'intake', params: domainIdParams, response: senderRequirementsSchema },
  { method: 'GET', path: '/api/domains/:id/dmarc-reports', service: 'intake', params: domainIdParams, response: receivedReportsAnswer },
  { method: 'POST', path: '/api/domains/:id/dmarc-reports', service: 'intake', params: domainIdParams, rawBody: REPORT_FILE_CONTENT_TYPES, response: uploadReportsAnswer },
  { method: 'GET', path: '/api/domains/:id/dmarc-reports/:reportId/source', service: 'intake', params: receivedReportParams },
  { method: 'POST', path: '/api/intake/tls-rpt/:token', service: 'intake', params: tlsRptTokenParams, rawBody: TLS_RPT_CONTENT_TYPES, response: tlsRptSubmissionAnswer },
  { method: 'POST', path: '/api/mail-tests', service: 'intake', response: createMailTestAnswer },
  { method: 'GET', path: '/api/mail-tests', service: 'intake', response: listMailTestsAnswer },
  { method: 'GET', path: '/api/mail-tests/:id', service: 'intake', params: mailTestIdParams, response: mailTestAnswer },
  { method: 'GET', path: '/api/mail-tests/:id/events', service: 'intake', params: mailTestIdParams },

  { method: 'GET', path: '/api/reports', service: 'reports', response: listReportsAnswer },
  { method: 'POST', path: '/api/reports/generate', service: 'reports', body: generateReportsBody, response: generateReportsAnswer },
  { method: 'GET', path: '/api/reports/:id', service: 'reports', params: reportIdParams, response: getReportAnswer },
  { method: 'GET', path: '/api/reports/:id/download', service: 'reports', params: reportIdParams, querystring: downloadReportQuery },
  { method: 'DELETE', path: '/api/reports/:id', service: 'reports', params: reportIdParams, response: deleteReportAnswer },
] as const satisfies readonly ApiRoute[];

/** `ROUTES` as plain `ApiRoute`s, for code that walks them all. */
export const API_ROUTES: readonly ApiRoute[] = ROUTES;

/** One `API_ROUTES` entry with its own types (its method and path as literals, its schemas as declared). */
export type ApiRouteEntry = (typeof ROUTES)[number];

/** `METHOD path` of an entry, the key the OpenAPI answers and the helpers below use: `'GET /api/domains/:id'`. */
export type ApiRouteKey = ApiRouteEntry extends infer R ? (R extends { method: infer M extends string; path: infer P extends string } ? `${M} ${P}` : never) : never;

/** The entry of one call, by its key. */
export type ApiRouteOf<K extends ApiRouteKey> = ApiRouteEntry extends infer R ? (R extends { method: infer M extends string; path: infer P extends string } ? (`${M} ${P}` extends K ? R : never) : never) : never;

export type SchemaOf<K extends ApiRouteKey, F extends 'params' | 'querystring' | 'body' | 'response'> = ApiRouteOf<K> extends infer R ? (R extends { [P in F]: infer S extends z.ZodType } ? S : never) : never;

/** The body of a call's success answer, as the service writes it (never for a call that answers a file or an event stream). */
export type ApiAnswer<K extends ApiRouteKey> = z.output<SchemaOf<K, 'response'>>;
/** The body a call takes, as the client sends it (before transforms and defaults). */
export type ApiBody<K extends ApiRouteKey> = z.input<SchemaOf<K, 'body'>>;
/** The query a call takes, as the client sends it. */
export type ApiQuery<K extends ApiRouteKey> = z.input<SchemaOf<K, 'querystring'>>;

/** The `:name` segments of a path, each given as a string or a number: `{ id: string | number }`. */
export type ApiPathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [N in Name]: string | number } & ApiPathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [N in Name]: string | number }
    : unknown;

const byKey = new Map<string, ApiRouteEntry>(ROUTES.map((route) => [`${route.method} ${route.path}`, route]));

/** The `API_ROUTES` entry of a call; throws for a key it does not list (the type already refuses one). */
export function apiRoute<K extends ApiRouteKey>(key: K): ApiRouteOf<K> {
  const route = byKey.get(key);
  if (!route) throw new Error(`${key} is not in API_ROUTES`);
  return route as ApiRouteOf<K>;
}
