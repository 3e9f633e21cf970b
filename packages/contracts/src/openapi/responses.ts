import type { z } from 'zod';
import { API_ROUTES, type ApiRouteKey } from '../api/routes.js';
import { apiErrorSchema } from '../errors.js';

/** Status code → the schema of that answer's body, as a route's Fastify `schema.response`. */
export type ResponseSchemas = Readonly<Record<number, z.ZodType>>;

/** How a call answers: its success statuses (each with its entry's `response`) and its error statuses. */
type AnswerStatuses = (answer: z.ZodType | undefined, key: string) => ResponseSchemas;

function statuses(success: readonly number[], errorCodes: readonly number[]): AnswerStatuses {
  return (answer, key) => {
    if (success.length > 0 && !answer) throw new Error(`${key} answers ${success.join(', ')} but its API_ROUTES entry has no response schema`);
    return { ...Object.fromEntries(success.map((code) => [code, answer])), ...Object.fromEntries(errorCodes.map((code) => [code, apiErrorSchema])) } as ResponseSchemas;
  };
}

/** A call that declares its error codes the way the services' `errorResponses` helper does (500 always). */
function answers(success: readonly number[], ...errorCodes: number[]): AnswerStatuses {
  return statuses(success, [...errorCodes, 500]);
}

/** A call whose errors are listed without the 500 (the alert, sample-domain and email-verify routes). */
function answersWithoutServerError(success: readonly number[], ...errorCodes: number[]): AnswerStatuses {
  return statuses(success, errorCodes);
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
 * Each `API_ROUTES` call's answer statuses, keyed `METHOD path`: a success status answers with the
 * entry's `response` schema (the one declaration of the call's answer), an error status with `ApiError`.
 */
const ANSWER_STATUSES: Readonly<Record<ApiRouteKey, AnswerStatuses>> = {
  'POST /api/auth/register': answers([201], 400, 409, 503),
  'POST /api/auth/login': answers([200], 400, 401, 403, 429),
  'POST /api/auth/logout': answers([200], 400),
  'POST /api/auth/forgot-password': answers([200], 400),
  'POST /api/auth/reset-password-with-token': answers([200], 400),
  'GET /api/auth/verify-email': answers([200], 400),

  'GET /api/user': answers([200], 401),
  'DELETE /api/user': answers([200], 400, 401, 429, 503),
  'GET /api/user/export': answers([200], 401, 503),
  'PUT /api/user/profile': answers([200], 400, 401, 409),
  'PUT /api/user/password': answers([200], 400, 401, 429),
  'PUT /api/user/timezone': answers([200], 400, 401),
  'PUT /api/user/date-format': answers([200], 400, 401),
  'PUT /api/user/currency': answers([200], 400, 401, 403),
  'POST /api/user/mark-preferences-set': answers([200], 400, 401),
  'POST /api/user/dismiss-upgrade-notification': answers([200], 400, 401),

  'GET /api/domains': answers([200], 401),
  'POST /api/domains': answers([201, 200], 400, 401, 403, 409),
  'GET /api/domains/deleted': answers([200], 401),
  'POST /api/domains/restore': answers([200], 400, 401, 403, 404, 409),
  'GET /api/domains/by-name/:domainName': answers([200], 400, 401, 403, 404),
  'GET /api/domains/name/:domainName/checks': answers([200], 400, 401, 403, 404),
  'GET /api/domains/name/:domainName/dns-records': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id': answers([200], 400, 401, 404),
  'DELETE /api/domains/:id': answers([200], 400, 401, 404),
  'GET /api/domains/:id/checks': answers([200], 400, 401, 404),
  'GET /api/domains/:id/reputation': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/reputation/history': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/last-scan': answers([200], 400, 401, 404),
  'POST /api/domains/:id/scan': answers([202], 400, 401, 403, 404, 429, 503),
  'POST /api/domains/:id/check': answers([202], 400, 401, 403, 404, 429, 503),
  'GET /api/domains/:id/scans/:scanId': answers([200], 400, 401, 404),
  'GET /api/domain-checks/history': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/history/days': answers([200], 400, 401, 403, 404),
  'GET /api/domain-checks/:scanId': answers([200], 400, 401, 404),
  'GET /api/alerts': answersWithoutServerError([200], 400, 401, 403, 404),
  'POST /api/alerts/mark-all-read': answersWithoutServerError([200], 400, 401, 403, 404),
  'POST /api/alerts/:id/mark-read': answersWithoutServerError([200], 400, 401, 403, 404),
  'GET /api/alerts/preferences': answers([200], 401),
  'PUT /api/alerts/preferences': answers([200], 400, 401),
  'GET /api/integrations': answers([200], 401),
  'POST /api/integrations': answers([200], 400, 401, 403, 503),
  'POST /api/integrations/:service/test': answers([200], 400, 401, 403, 404),
  'DELETE /api/integrations/:service': answers([200], 400, 401, 404),
  'GET /api/integrations/webhooks': answers([200], 401, 403),
  'POST /api/integrations/webhooks': answers([201], 400, 401, 403),
  'DELETE /api/integrations/webhooks/:id': answers([200], 400, 401, 404),
  'POST /api/integrations/webhooks/:id/test': answers([200], 400, 401, 403, 404),
  'GET /api/sample-domains/:domain': answersWithoutServerError([200], 400, 429, 503),
  'POST /api/email-verify': answersWithoutServerError([200], 400, 401, 429),
  'POST /api/email-verify/batch': answersWithoutServerError([200], 400, 401, 403, 429),

  'POST /api/subscription': answers([200], 400, 401, 402, 403, 503),
  'POST /api/subscription/update': answers([200], 400, 401, 402, 403, 503),
  'POST /api/subscription/cancel': answers([200], 400, 401, 503),
  'GET /api/subscription/status': answers([200], 401, 503),
  'POST /api/sync-subscription': answers([200], 400, 401, 404, 503),
  'GET /api/payment-method': answers([200], 401, 403, 503),
  'POST /api/setup-intent': answers([200], 400, 401, 403, 503),
  'POST /api/update-payment-method': answers([200], 400, 401, 402, 403, 404, 503),
  'GET /api/billing/history': answers([200], 401, 503),
  'GET /api/billing/config': answers([200], 401),
  'GET /api/billing/invoices/:id/pdf': answers([], 400, 401, 404, 503),
  'POST /api/webhooks/stripe': answers([200], 400, 413, 503),

  'GET /api/domains/:id/report-addresses': answers([200], 400, 401, 403, 404),
  'PUT /api/domains/:id/mail-flow/settings': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/mail-flow': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/sender-requirements': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/tls-reports': answers([200], 400, 401, 403, 404),
  'GET /api/domains/:id/dmarc-reports': answers([200], 400, 401, 403, 404),
  'POST /api/domains/:id/dmarc-reports': answers([202], 400, 401, 403, 404, 413, 415),
  // The body is the report file itself (XML or TLS-RPT JSON), described by its content type.
  'GET /api/domains/:id/dmarc-reports/:reportId/source': answers([], 400, 401, 403, 404),
  'POST /api/intake/tls-rpt/:token': answers([200], 400, 404, 413, 415),
  'POST /api/mail-tests': answers([201], 401, 403, 429),
  'GET /api/mail-tests': answers([200], 401, 403),
  'GET /api/mail-tests/:id': answers([200], 400, 401, 403, 404),
  // A stream of server-sent events (`event: status`, data: the test as GET /api/mail-tests/{id} answers it).
  'GET /api/mail-tests/:id/events': answers([], 400, 401, 403, 404),

  'GET /api/reports': answers([200], 401, 403),
  'POST /api/reports/generate': answers([202], 400, 401, 403, 404, 503),
  'GET /api/reports/:id': answers([200], 400, 401, 403, 404),
  // The body is the file itself (PDF, HTML, JSON or text), described by its content type.
  'GET /api/reports/:id/download': answers([], 400, 401, 403, 404, 409),
  'DELETE /api/reports/:id': answers([200], 400, 401, 403, 404),
};

/**
 * Each `API_ROUTES` call's answers, keyed `METHOD path`, exactly as the serving route declares them
 * in `schema.response` (the API fuzz suite compares the two against the services' real routes).
 */
export const API_RESPONSES: Readonly<Record<string, ResponseSchemas>> = Object.fromEntries(
  API_ROUTES.map((route) => {
    const key = `${route.method} ${route.path}`;
    const answersOf = (ANSWER_STATUSES as Readonly<Record<string, AnswerStatuses | undefined>>)[key];
    if (!answersOf) throw new Error(`No answer statuses for ${key} (add it to ANSWER_STATUSES)`);
    return [key, answersOf(route.response, key)];
  }),
);
