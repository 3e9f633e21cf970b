import type { Finding } from '@sendwell/contracts';
import type { Check, CheckResult } from './types.js';
import { fetchSpfRecord, SpfTempError } from './spf/lookup.js';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from './spf/evaluate.js';
import { walkSpf, type FlattenedIp, type SpfTreeNode, type VoidLookup } from './spf/tree.js';

export { checkHost, type CheckHostInput, type CheckHostResult, type SpfResult } from './spf/evaluate.js';

/**
 * The SPF check of a scan (RFC 7208). There is no connecting IP in a scan, so the record tree is walked
 * statically: the lookups and void lookups a worst-case evaluation spends, the include tree, the
 * addresses the domain authorises, and every problem with the record it is in.
 */

export interface SpfDetails extends Record<string, unknown> {
  issue: string | null;
  record: string | null;
  /** Every SPF record found at the domain (several is an error). */
  records: string[];
  lookupCount: number;
  lookupLimit: number;
  voidLookupCount: number;
  voidLookupLimit: number;
  voidLookups: VoidLookup[];
  includeTree: SpfTreeNode | null;
  flattenedIps: FlattenedIp[];
  /** The qualifier of the `all` that ends evaluation after redirects ('+', '-', '~', '?'), or null. */
  allQualifier: string | null;
  /** Length in bytes of the record text. */
  recordLength: number;
  findings: Finding[];
}

/** Lookups from here up to the limit get a warning: one more include from a provider can tip it over. */
const NEAR_LIMIT = 8;
/** RFC 7208 §3.4: keep the answer within 512 bytes of UDP; the record text itself around 450 bytes. */
const LONG_RECORD_BYTES = 450;

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

function emptyDetails(): SpfDetails {
  return {
    issue: null,
    record: null,
    records: [],
    lookupCount: 0,
    lookupLimit: MAX_DNS_LOOKUPS,
    voidLookupCount: 0,
    voidLookupLimit: MAX_VOID_LOOKUPS,
    voidLookups: [],
    includeTree: null,
    flattenedIps: [],
    allQualifier: null,
    recordLength: 0,
    findings: [],
  };
}

function result(status: CheckResult['status'], value: string | null, message: string, recommendation: string | null, details: SpfDetails): CheckResult<SpfDetails> {
  return { type: 'spf', status, value, message, recommendation, details };
}

export const spfCheck: Check = async ({ domain, resolver }) => {
  const details = emptyDetails();
  let lookup;
  try {
    lookup = await fetchSpfRecord(resolver, domain);
  } catch (error) {
    if (!(error instanceof SpfTempError)) throw error;
    const message = `The SPF record of ${domain} could not be read: ${error.message}.`;
    details.issue = message;
    details.findings.push({
      code: 'SPF_DNS_TEMPERROR',
      severity: 'warning',
      message,
      rfc: 'RFC 7208 §4.4',
      recommendation: 'Check that the domain\'s name servers answer; receivers treat this as a temporary error and defer mail.',
    });
    return result('unknown', null, message, details.findings[0]?.recommendation ?? null, details);
  }

  if (lookup.kind === 'none') {
    const message = `${domain} has no SPF record, so receivers cannot tell which servers may send its mail.`;
    const recommendation = `Publish one TXT record at ${domain} such as "v=spf1 include:<your provider> -all" listing every service that sends for you.`;
    details.issue = message;
    details.findings.push({ code: 'SPF_MISSING', severity: 'error', message, rfc: 'RFC 7208 §4.5', recommendation });
    return result('missing', null, message, recommendation, details);
  }

  if (lookup.kind === 'multiple') {
    const message = `${domain} publishes ${lookup.records.length} SPF records; receivers treat that as a permanent error and SPF fails for all mail.`;
    const recommendation = 'Merge the records into a single "v=spf1 ..." TXT record and delete the others.';
    details.issue = message;
    details.records = lookup.records;
    details.findings.push({ code: 'SPF_MULTIPLE_RECORDS', severity: 'error', message, rfc: 'RFC 7208 §4.5', recommendation, records: lookup.records });
    return result('error', lookup.records.join(' | '), message, recommendation, details);
  }

  const record = lookup.text;
  details.record = record;
  details.records = [record];
  details.recordLength = Buffer.byteLength(record);
  const walk = await walkSpf(resolver, domain, record);
  const findings = walk.findings;
  details.includeTree = walk.root;
  details.lookupCount = walk.lookupCount;
  details.voidLookups = walk.voidLookups;
  details.voidLookupCount = walk.voidLookups.length;
  details.flattenedIps = walk.flattenedIps;
  details.allQualifier = walk.finalAll;
  const rootParsed = walk.root.errorCode === null || walk.root.errorCode === 'SPF_DNS_TEMPERROR';

  if (rootParsed) {
    switch (walk.finalAll) {
      case '+':
        findings.push({
          code: 'SPF_PASS_ALL',
          severity: 'error',
          message: `The SPF record ends in "+all", so it authorises every server on the Internet to send as ${domain}.`,
          rfc: 'RFC 7208 §5.1',
          recommendation: 'End the record with "~all" or "-all" after listing your real senders.',
        });
        break;
      case '?':
        findings.push({
          code: 'SPF_NEUTRAL_ALL',
          severity: 'warning',
          message: 'The SPF record ends in "?all", which makes no assertion about other servers, so spoofed mail is not flagged.',
          rfc: 'RFC 7208 §5.1, §8.2',
          recommendation: 'End the record with "~all" (or "-all") once every sender is listed.',
        });
        break;
      case '~':
        // Decision: info, not a warning. With DMARC enforcing, receivers act on DMARC rather than the SPF
        // softfail, and "~all" keeps forwarded mail from being rejected at SPF before DKIM can save it
        // (M3AAWG's and most providers' advice); "-all" is only stricter without DMARC.
        findings.push({
          code: 'SPF_SOFTFAIL_ALL',
          severity: 'info',
          message: 'The SPF record ends in "~all" (softfail): unlisted servers are flagged, not rejected; with an enforcing DMARC policy that is the usual choice.',
          rfc: 'RFC 7208 §8.5',
          recommendation: 'Keep "~all" with DMARC p=quarantine or p=reject; without DMARC consider "-all".',
        });
        break;
      case null:
        {
          // The record that ends evaluation: the root, or the last one of its redirect chain.
          let last = walk.root;
          for (let next = last.children.find((c) => c.via === 'redirect'); next; next = next.children.find((c) => c.via === 'redirect')) last = next;
          if (last.errorCode === null) {
            findings.push({
              code: 'SPF_NO_ALL',
              severity: 'warning',
              message:
                last === walk.root
                  ? 'The SPF record has no "all" mechanism and no redirect, so servers not listed get "neutral" and spoofed mail is not flagged.'
                  : `The SPF record redirects to ${last.domain}, whose record has no "all" mechanism, so servers not listed get "neutral".`,
              rfc: 'RFC 7208 §4.7',
              recommendation: `End the record${last === walk.root ? '' : ` of ${last.domain}`} with "~all" or "-all".`,
              domain: last.domain,
            });
          }
        }
        break;
    }
  }

  if (walk.lookupCount > MAX_DNS_LOOKUPS) {
    findings.push({
      code: 'SPF_TOO_MANY_LOOKUPS',
      severity: 'error',
      message: `Evaluating the SPF record takes ${walk.lookupCount} DNS lookups; above ${MAX_DNS_LOOKUPS} receivers return a permanent error and SPF fails.`,
      rfc: 'RFC 7208 §4.6.4',
      recommendation: 'Remove unused includes, replace "a", "mx" and "ptr" with ip4:/ip6: networks, or flatten includes you control.',
      lookupCount: walk.lookupCount,
    });
  } else if (walk.lookupCount >= NEAR_LIMIT) {
    findings.push({
      code: 'SPF_LOOKUPS_NEAR_LIMIT',
      severity: 'warning',
      message: `Evaluating the SPF record takes ${walk.lookupCount} of the ${MAX_DNS_LOOKUPS} DNS lookups allowed; one more include could break SPF.`,
      rfc: 'RFC 7208 §4.6.4',
      recommendation: 'Remove unused includes or replace "a"/"mx" terms with ip4:/ip6: networks to leave headroom.',
      lookupCount: walk.lookupCount,
    });
  }

  if (walk.voidLookups.length > MAX_VOID_LOOKUPS) {
    findings.push({
      code: 'SPF_TOO_MANY_VOID_LOOKUPS',
      severity: 'error',
      message: `${walk.voidLookups.length} lookups in the SPF record find nothing (${walk.voidLookups.map((v) => v.name).join(', ')}); above ${MAX_VOID_LOOKUPS} receivers return a permanent error.`,
      rfc: 'RFC 7208 §4.6.4',
      recommendation: 'Remove the terms that point to names with no records.',
      voidLookups: walk.voidLookups,
    });
  } else if (walk.voidLookups.length > 0) {
    findings.push({
      code: 'SPF_VOID_LOOKUP',
      severity: 'info',
      message: `${walk.voidLookups.length} lookup(s) in the SPF record find nothing (${walk.voidLookups.map((v) => v.name).join(', ')}); more than ${MAX_VOID_LOOKUPS} would be a permanent error.`,
      rfc: 'RFC 7208 §4.6.4',
      recommendation: 'Remove terms pointing to names that have no records.',
      voidLookups: walk.voidLookups,
    });
  }

  if (details.recordLength > LONG_RECORD_BYTES) {
    findings.push({
      code: 'SPF_RECORD_TOO_LONG',
      severity: 'info',
      message: `The SPF record is ${details.recordLength} bytes; past about ${LONG_RECORD_BYTES} the DNS answer may not fit one UDP packet and needs TCP.`,
      rfc: 'RFC 7208 §3.4',
      recommendation: 'Shorten the record, for example by moving networks into an include.',
    });
  }

  if (walk.temperror) {
    findings.push({
      code: 'SPF_DNS_TEMPERROR',
      severity: 'warning',
      message: `Part of the SPF record tree of ${domain} could not be resolved (DNS timeout or server failure), so the result cannot be known.`,
      rfc: 'RFC 7208 §4.4',
      recommendation: 'Check that the name servers of every included domain answer; receivers defer mail on temporary errors.',
    });
  }

  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  details.findings = findings;
  const hasError = findings.some((f) => f.severity === 'error');
  const hasWarning = findings.some((f) => f.severity === 'warning');
  // A definite fault outranks "unknown"; otherwise a temporary failure means the result is not known.
  const main = walk.temperror && !hasError ? findings.find((f) => f.code === 'SPF_DNS_TEMPERROR') : findings[0];
  if (main && (hasError || hasWarning)) {
    details.issue = main.message;
    const status = hasError ? 'error' : walk.temperror ? 'unknown' : 'warning';
    return result(status, record, main.message, main.recommendation ?? null, details);
  }
  const message = `The SPF record is valid and uses ${walk.lookupCount} of ${MAX_DNS_LOOKUPS} DNS lookups.`;
  return result('valid', record, message, null, details);
};
