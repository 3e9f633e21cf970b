import type { z } from 'zod';
import {
  listAlertsAnswer,
  markAlertReadAnswer,
  markAllAlertsReadAnswer,
  notificationPreferencesAnswer,
  updateNotificationPreferencesAnswer,
} from '../api/alerts.js';
import {
  createWebhookAnswer,
  deleteIntegrationAnswer,
  deleteWebhookAnswer,
  listIntegrationsAnswer,
  listWebhooksAnswer,
  saveIntegrationAnswer,
  testIntegrationAnswer,
} from '../api/integrations.js';
import { deleteReportAnswer, generateReportsAnswer, getReportAnswer, listReportsAnswer } from '../api/reports.js';
import {
  billingConfigAnswer,
  billingHistoryAnswer,
  cancelSubscriptionAnswer,
  createSubscriptionAnswer,
  paymentMethodAnswer,
  setupIntentAnswer,
  stripeWebhookAnswer,
  subscriptionStatusAnswer,
  syncSubscriptionAnswer,
  updatePaymentMethodAnswer,
  updateSubscriptionAnswer,
} from '../api/billing.js';
import { authAnswer, forgotPasswordAnswer, logoutAnswer, registerAnswer, resetPasswordAnswer, verifyEmailAnswer } from '../api/auth.js';
import {
  blacklistCheckAnswer,
  createDomainAnswer,
  deleteDomainAnswer,
  dnsRecordsAnswer,
  domainHistoryAnswer,
  getDomainAnswer,
  lastScanAnswer,
  listChecksAnswer,
  listDeletedDomainsAnswer,
  listDomainsAnswer,
  reputationAnswer,
  reputationHistoryAnswer,
  restoreDomainAnswer,
  scanDetailAnswer,
  scanDomainAnswer,
  scanStatusAnswer,
} from '../api/domains.js';
import { emailVerifyAnswer, emailVerifyBatchAnswer } from '../api/email-verify.js';
import { sampleDomainAnswer } from '../api/sample-domains.js';
import { senderRequirementsSchema } from '../entities/sender-requirements.js';
import { mailFlowAnswer, okMailFlowSettingsAnswer, receivedReportsAnswer, reportAddressesAnswer, tlsReportsAnswer, tlsRptSubmissionAnswer, uploadReportsAnswer } from '../api/mail-flow.js';
import { createMailTestAnswer, listMailTestsAnswer, mailTestAnswer } from '../api/mail-tests.js';
import { accountExportSchema } from '../api/account-export.js';
import { deleteUserAnswer, getUserAnswer, passwordChangedAnswer, userUpdateAnswer } from '../api/user.js';
import { apiErrorSchema } from '../errors.js';

/** Status code → the schema of that answer's body, as a route's Fastify `schema.response`. */
export type ResponseSchemas = Readonly<Record<number, z.ZodType>>;

/** The answers of a call that declares its error codes the way the services' `errorResponses` helper does (500 always). */
function answers(success: Record<number, z.ZodType>, ...errorCodes: number[]): ResponseSchemas {
  return { ...success, ...Object.fromEntries([...errorCodes, 500].map((code) => [code, apiErrorSchema])) };
}

/** A call whose errors are listed without the 500 (the alert, sample-domain and email-verify routes). */
function answersWithoutServerError(success: Record<number, z.ZodType>, ...errorCodes: number[]): ResponseSchemas {
  return { ...success, ...Object.fromEntries(errorCodes.map((code) => [code, apiErrorSchema])) };
}

/** The calls that need no session (every other one authenticates first and answers 401 without one). */
export const SESSION_FREE_CALLS: ReadonlySet<string> = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password-with-token',
  'GET /api/auth/verify-email',
  'GET /api/sample-domains/:domain',
  'POST /api/intake/tls-rpt/:token',
  'POST /api/webhooks/stripe',
]);

/**
 * Each `API_ROUTES` call's answers, keyed `METHOD path`, exactly as the serving route declares them
 * in `schema.response` (the API fuzz suite compares the two against the services' real routes).
 */
export const API_RESPONSES: Readonly<Record<string, ResponseSchemas>> = {
  'POST /api/auth/register': answers({ 201: registerAnswer }, 400, 409, 503),
  'POST /api/auth/login': answers({ 200: authAnswer }, 400, 401, 403, 429),
  'POST /api/auth/logout': answers({ 200: logoutAnswer }, 400),
  'POST /api/auth/forgot-password': answers({ 200: forgotPasswordAnswer }, 400),
  'POST /api/auth/reset-password-with-token': answers({ 200: resetPasswordAnswer }, 400),
  'GET /api/auth/verify-email': answers({ 200: verifyEmailAnswer }, 400),

  'GET /api/user': answers({ 200: getUserAnswer }, 401),
  'DELETE /api/user': answers({ 200: deleteUserAnswer }, 400, 401, 429, 503),
  'GET /api/user/export': answers({ 200: accountExportSchema }, 401, 503),
  'PUT /api/user/profile': answers({ 200: userUpdateAnswer }, 400, 401, 409),
  'PUT /api/user/password': answers({ 200: passwordChangedAnswer }, 400, 401, 429),
  'PUT /api/user/timezone': answers({ 200: userUpdateAnswer }, 400, 401),
  'PUT /api/user/date-format': answers({ 200: userUpdateAnswer }, 400, 401),
  'PUT /api/user/currency': answers({ 200: userUpdateAnswer }, 400, 401, 403),
  'POST /api/user/mark-preferences-set': answers({ 200: userUpdateAnswer }, 400, 401),
  'POST /api/user/dismiss-upgrade-notification': answers({ 200: userUpdateAnswer }, 400, 401),

  'GET /api/domains': answers({ 200: listDomainsAnswer }, 401),
  'POST /api/domains': answers({ 201: createDomainAnswer, 200: createDomainAnswer }, 400, 401, 403, 409),
  'GET /api/domains/deleted': answers({ 200: listDeletedDomainsAnswer }, 401),
  'POST /api/domains/restore': answers({ 200: restoreDomainAnswer }, 400, 401, 403, 404, 409),
  'GET /api/domains/by-name/:domainName': answers({ 200: getDomainAnswer }, 400, 401, 403, 404),
  'GET /api/domains/name/:domainName/checks': answers({ 200: listChecksAnswer }, 400, 401, 403, 404),
  'GET /api/domains/name/:domainName/dns-records': answers({ 200: dnsRecordsAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id': answers({ 200: getDomainAnswer }, 400, 401, 404),
  'DELETE /api/domains/:id': answers({ 200: deleteDomainAnswer }, 400, 401, 404),
  'GET /api/domains/:id/checks': answers({ 200: listChecksAnswer }, 400, 401, 404),
  'GET /api/domains/:id/reputation': answers({ 200: reputationAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id/reputation/history': answers({ 200: reputationHistoryAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id/last-scan': answers({ 200: lastScanAnswer }, 400, 401, 404),
  'POST /api/domains/:id/scan': answers({ 202: scanDomainAnswer }, 400, 401, 403, 404, 429, 503),
  'POST /api/domains/:id/check': answers({ 202: blacklistCheckAnswer }, 400, 401, 403, 404, 429, 503),
  'GET /api/domains/:id/scans/:scanId': answers({ 200: scanStatusAnswer }, 400, 401, 404),
  'GET /api/domain-checks/history': answers({ 200: domainHistoryAnswer }, 401, 403),
  'GET /api/domain-checks/:scanId': answers({ 200: scanDetailAnswer }, 400, 401, 404),
  'GET /api/alerts': answersWithoutServerError({ 200: listAlertsAnswer }, 400, 401, 403, 404),
  'POST /api/alerts/mark-all-read': answersWithoutServerError({ 200: markAllAlertsReadAnswer }, 400, 401, 403, 404),
  'POST /api/alerts/:id/mark-read': answersWithoutServerError({ 200: markAlertReadAnswer }, 400, 401, 403, 404),
  'GET /api/alerts/preferences': answers({ 200: notificationPreferencesAnswer }, 401),
  'PUT /api/alerts/preferences': answers({ 200: updateNotificationPreferencesAnswer }, 400, 401),
  'GET /api/integrations': answers({ 200: listIntegrationsAnswer }, 401),
  'POST /api/integrations': answers({ 200: saveIntegrationAnswer }, 400, 401, 403, 503),
  'POST /api/integrations/:service/test': answers({ 200: testIntegrationAnswer }, 400, 401, 403, 404),
  'DELETE /api/integrations/:service': answers({ 200: deleteIntegrationAnswer }, 400, 401, 404),
  'GET /api/integrations/webhooks': answers({ 200: listWebhooksAnswer }, 401, 403),
  'POST /api/integrations/webhooks': answers({ 201: createWebhookAnswer }, 400, 401, 403),
  'DELETE /api/integrations/webhooks/:id': answers({ 200: deleteWebhookAnswer }, 400, 401, 404),
  'POST /api/integrations/webhooks/:id/test': answers({ 200: testIntegrationAnswer }, 400, 401, 403, 404),
  'GET /api/sample-domains/:domain': answersWithoutServerError({ 200: sampleDomainAnswer }, 400, 429, 503),
  'POST /api/email-verify': answersWithoutServerError({ 200: emailVerifyAnswer }, 400, 401, 429),
  'POST /api/email-verify/batch': answersWithoutServerError({ 200: emailVerifyBatchAnswer }, 400, 401, 403, 429),

  'POST /api/subscription': answers({ 200: createSubscriptionAnswer }, 400, 401, 402, 403, 503),
  'POST /api/subscription/update': answers({ 200: updateSubscriptionAnswer }, 400, 401, 402, 403, 503),
  'POST /api/subscription/cancel': answers({ 200: cancelSubscriptionAnswer }, 400, 401, 503),
  'GET /api/subscription/status': answers({ 200: subscriptionStatusAnswer }, 401, 503),
  'POST /api/sync-subscription': answers({ 200: syncSubscriptionAnswer }, 400, 401, 404, 503),
  'GET /api/payment-method': answers({ 200: paymentMethodAnswer }, 401, 403, 503),
  'POST /api/setup-intent': answers({ 200: setupIntentAnswer }, 400, 401, 403, 503),
  'POST /api/update-payment-method': answers({ 200: updatePaymentMethodAnswer }, 400, 401, 402, 403, 404, 503),
  'GET /api/billing/history': answers({ 200: billingHistoryAnswer }, 401, 503),
  'GET /api/billing/config': answers({ 200: billingConfigAnswer }, 401),
  'GET /api/billing/invoices/:id/pdf': answers({}, 400, 401, 404, 503),
  'POST /api/webhooks/stripe': answers({ 200: stripeWebhookAnswer }, 400, 413, 503),

  'GET /api/domains/:id/report-addresses': answers({ 200: reportAddressesAnswer }, 400, 401, 403, 404),
  'PUT /api/domains/:id/mail-flow/settings': answers({ 200: okMailFlowSettingsAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id/mail-flow': answers({ 200: mailFlowAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id/sender-requirements': answers({ 200: senderRequirementsSchema }, 400, 401, 403, 404),
  'GET /api/domains/:id/tls-reports': answers({ 200: tlsReportsAnswer }, 400, 401, 403, 404),
  'GET /api/domains/:id/dmarc-reports': answers({ 200: receivedReportsAnswer }, 400, 401, 403, 404),
  'POST /api/domains/:id/dmarc-reports': answers({ 202: uploadReportsAnswer }, 400, 401, 403, 404, 413, 415),
  // The body is the report file itself (XML or TLS-RPT JSON), described by its content type.
  'GET /api/domains/:id/dmarc-reports/:reportId/source': answers({}, 400, 401, 403, 404),
  'POST /api/intake/tls-rpt/:token': answers({ 200: tlsRptSubmissionAnswer }, 400, 404, 413, 415),
  'POST /api/mail-tests': answers({ 201: createMailTestAnswer }, 401, 403, 429),
  'GET /api/mail-tests': answers({ 200: listMailTestsAnswer }, 401, 403),
  'GET /api/mail-tests/:id': answers({ 200: mailTestAnswer }, 400, 401, 403, 404),
  // A stream of server-sent events (`event: status`, data: the test as GET /api/mail-tests/{id} answers it).
  'GET /api/mail-tests/:id/events': answers({}, 400, 401, 403, 404),

  'GET /api/reports': answers({ 200: listReportsAnswer }, 401, 403),
  'POST /api/reports/generate': answers({ 202: generateReportsAnswer }, 400, 401, 403, 404, 503),
  'GET /api/reports/:id': answers({ 200: getReportAnswer }, 400, 401, 403, 404),
  // The body is the file itself (PDF, HTML, JSON or text), described by its content type.
  'GET /api/reports/:id/download': answers({}, 400, 401, 403, 404, 409),
  'DELETE /api/reports/:id': answers({ 200: deleteReportAnswer }, 400, 401, 403, 404),
};
