import type { Finding, TlsRptDetails } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';

type TlsRptResult = CheckResult<TlsRptDetails>;

const RFC = 'RFC 8460 §3';
const EXAMPLE = (domain: string) => `"v=TLSRPTv1; rua=mailto:tls-reports@${domain}"`;

export function unknownResult(domain: string, reason: string): TlsRptResult {
  return {
    type: 'tls_rpt',
    status: 'unknown',
    value: null,
    message: `TLS-RPT could not be checked: the DNS lookup of _smtp._tls.${domain} ${reason}.`,
    recommendation: null,
    details: { record: null, records: [], rua: [], findings: [] },
  };
}

export function missingResult(domain: string): TlsRptResult {
  const recommendation = `Publish the TXT record ${EXAMPLE(domain)} at _smtp._tls.${domain} (or the https: endpoint of a report service).`;
  const finding: Finding = {
    code: 'TLS_RPT_MISSING',
    severity: 'warning',
    message: `No TLS-RPT record at _smtp._tls.${domain}, so senders do not report failed TLS connections to ${domain}'s MX hosts and MTA-STS or STARTTLS problems go unnoticed.`,
    rfc: RFC,
    recommendation,
  };
  return {
    type: 'tls_rpt',
    status: 'missing',
    value: null,
    message: `No TLS-RPT record is published for ${domain}.`,
    recommendation,
    details: { record: null, records: [], rua: [], findings: [finding] },
  };
}

/** Several records, or none that senders read: TLS-RPT is void. */
export function voidResult(domain: string, records: string[], kind: 'multiple' | 'ignored'): TlsRptResult {
  const findings: Finding[] =
    kind === 'multiple'
      ? [
          {
            code: 'TLS_RPT_MULTIPLE_RECORDS',
            severity: 'error',
            message: `_smtp._tls.${domain} has ${records.length} TLS-RPT records, so senders send no reports at all.`,
            rfc: RFC,
            recommendation: `Merge them into one TXT record at _smtp._tls.${domain}; one rua= field can list several destinations separated by commas.`,
          },
        ]
      : records.map((record) => ({
          code: 'TLS_RPT_RECORD_INVALID',
          severity: 'error' as const,
          message: `The record "${record}" at _smtp._tls.${domain} does not start with exactly "v=TLSRPTv1", so senders ignore it.`,
          rfc: RFC,
          recommendation: `Start the record with "v=TLSRPTv1;" (case-sensitive, no blanks around "="), e.g. ${EXAMPLE(domain)}.`,
        }));
  return {
    type: 'tls_rpt',
    status: 'error',
    value: records.join(' | '),
    message: findings[0]?.message ?? `The TLS-RPT record of ${domain} is void.`,
    recommendation: mostSevereRecommendation(findings),
    details: { record: null, records, rua: [], findings },
  };
}

/** The one record: an error in it decides, then warnings; otherwise reports go to its destinations. */
export function recordResult(record: string, rua: string[], validRua: string[], findings: Finding[]): TlsRptResult {
  const top = findings.find((finding) => finding.severity === 'error') ?? findings.find((finding) => finding.severity === 'warning');
  const details = { record, records: [record], rua, findings };
  if (top) {
    return { type: 'tls_rpt', status: top.severity === 'error' ? 'error' : 'warning', value: record, message: top.message, recommendation: mostSevereRecommendation(findings), details };
  }
  return {
    type: 'tls_rpt',
    status: 'valid',
    value: validRua.join(', '),
    message: `Senders report TLS connection failures to ${validRua.join(', ')}.`,
    recommendation: null,
    details,
  };
}
