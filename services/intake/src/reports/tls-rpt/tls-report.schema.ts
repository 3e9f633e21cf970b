import { z } from 'zod';
import { normaliseDomain } from '../domain-names.js';
import type { TlsReport } from './types.js';

/** RFC 3339 §5.6 date-time; the 't', 'z' and space separators it allows are accepted too. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[ t]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:z|[+-]\d{2}:\d{2})$/i;

const dateTime = z
  .string()
  .regex(RFC3339, 'must be an RFC 3339 date-time')
  .transform((value, ctx) => {
    const date = new Date(value.toUpperCase().replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be a real date' });
      return z.NEVER;
    }
    return date;
  });

/** Counts are JSON numbers in the RFC; a few senders quote them. */
const count = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,15}$/, 'must be a count').transform(Number)]);

const text = z.string().max(4096);
const optionalText = text.nullish().transform((value) => value ?? null);

/** RFC 8460 §4.4 says an array of strings; its own §4.8 example and some senders send one string. */
const stringList = z
  .union([text, z.array(text)])
  .nullish()
  .transform((value) => (value == null ? [] : Array.isArray(value) ? value : [value]));

/** Older Google reports listed MX hosts as objects; the host name is the part we keep. */
const mxHostObject = z.object({ hostname: text.optional(), 'mx-host': text.optional() }).transform((host) => host.hostname ?? host['mx-host'] ?? '');
const mxHosts = z
  .union([text, z.array(z.union([text, mxHostObject]))])
  .nullish()
  .transform((value) => (value == null ? [] : Array.isArray(value) ? value.filter((host) => host !== '') : [value]));

const failureDetail = z
  .object({
    'result-type': z.string().min(1).max(255),
    'sending-mta-ip': optionalText,
    'receiving-mx-hostname': optionalText,
    'receiving-mx-helo': optionalText,
    'receiving-ip': optionalText,
    'failed-session-count': count,
    'additional-information': optionalText,
    'failure-reason-code': optionalText,
    /** The name RFC 8460's own §4.8 example uses for failure-reason-code. */
    'failure-error-code': optionalText,
  })
  .transform((detail) => ({
    resultType: detail['result-type'],
    sendingMtaIp: detail['sending-mta-ip'],
    receivingMx: detail['receiving-mx-hostname'],
    receivingHelo: detail['receiving-mx-helo'],
    receivingIp: detail['receiving-ip'],
    count: detail['failed-session-count'],
    additionalInformation: detail['additional-information'],
    reasonCode: detail['failure-reason-code'] ?? detail['failure-error-code'],
  }));

const policyResult = z
  .object({
    policy: z.object({
      'policy-type': z.enum(['tlsa', 'sts', 'no-policy-found']),
      'policy-string': stringList,
      'policy-domain': z.string().min(1).max(255),
      'mx-host': mxHosts,
    }),
    summary: z.object({
      'total-successful-session-count': count,
      'total-failure-session-count': count,
    }),
    'failure-details': z.array(failureDetail).nullish(),
  })
  .transform((result) => ({
    type: result.policy['policy-type'],
    domain: normaliseDomain(result.policy['policy-domain']),
    strings: result.policy['policy-string'],
    mxHosts: result.policy['mx-host'],
    successful: result.summary['total-successful-session-count'],
    failed: result.summary['total-failure-session-count'],
    failures: result['failure-details'] ?? [],
  }));

/** RFC 8460 §4.4; unknown fields are dropped, as §4 asks receivers of reports to tolerate them. */
export const tlsReportSchema = z
  .object({
    'organization-name': z.string().min(1).max(1024),
    'date-range': z.object({ 'start-datetime': dateTime, 'end-datetime': dateTime }),
    'contact-info': optionalText,
    'report-id': z.string().min(1).max(1024),
    policies: z.array(policyResult),
  })
  .transform(
    (report): TlsReport => ({
      organization: report['organization-name'],
      contact: report['contact-info'],
      reportId: report['report-id'],
      period: { start: report['date-range']['start-datetime'], end: report['date-range']['end-datetime'] },
      policies: report.policies,
    }),
  );
