import type { Finding } from '@sendwell/contracts';
import type { Resolver } from '../../dns/types.js';
import type { CheckContext, CheckResult } from '../types.js';
import { MAX_DNS_LOOKUPS, MAX_VOID_LOOKUPS } from './evaluate.js';
import { spfFindings } from './findings.js';
import { fetchSpfRecord, SpfTempError, type SpfRecordLookup } from '../shared/spf-record/lookup.js';
import { walkSpf, type FlattenedIp, type SpfTreeNode, type SpfWalk, type VoidLookup } from './tree.js';
import { spfVerdict } from './verdict.js';

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

export const spfCheck = async ({ domain, resolver }: CheckContext): Promise<CheckResult<SpfDetails>> => {
  const lookup = await readSpfRecord(resolver, domain);
  if (lookup.kind === 'temperror') return unreadableResult(domain, lookup.error);
  if (lookup.kind === 'none') return missingResult(domain);
  if (lookup.kind === 'multiple') return multipleRecordsResult(domain, lookup.records);
  const record = lookup.text;
  const walk = await walkSpf(resolver, domain, record);
  const details = walkDetails(record, walk);
  details.findings = spfFindings(domain, walk, details.recordLength);
  const { status, message, recommendation, issue } = spfVerdict(walk, details.findings);
  details.issue = issue;
  return spfResult(status, record, message, recommendation, details);
};

/** The domain's SPF record, with a temporary DNS failure as an outcome rather than a throw. */
async function readSpfRecord(resolver: Resolver, domain: string): Promise<SpfRecordLookup | { kind: 'temperror'; error: SpfTempError }> {
  try {
    return await fetchSpfRecord(resolver, domain);
  } catch (error) {
    if (error instanceof SpfTempError) return { kind: 'temperror', error };
    throw error;
  }
}

function spfResult(status: CheckResult['status'], value: string | null, message: string, recommendation: string | null, details: SpfDetails): CheckResult<SpfDetails> {
  return { type: 'spf', status, value, message, recommendation, details };
}

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

/** What the walk of the record tree found, before its findings are judged. */
function walkDetails(record: string, walk: SpfWalk): SpfDetails {
  return {
    ...emptyDetails(),
    record,
    records: [record],
    lookupCount: walk.lookupCount,
    voidLookupCount: walk.voidLookups.length,
    voidLookups: walk.voidLookups,
    includeTree: walk.root,
    flattenedIps: walk.flattenedIps,
    allQualifier: walk.finalAll,
    recordLength: Buffer.byteLength(record),
  };
}

function unreadableResult(domain: string, error: SpfTempError): CheckResult<SpfDetails> {
  const message = `The SPF record of ${domain} could not be read: ${error.message}.`;
  const recommendation = 'Check that the domain\'s name servers answer; receivers treat this as a temporary error and defer mail.';
  const details = { ...emptyDetails(), issue: message };
  details.findings.push({ code: 'SPF_DNS_TEMPERROR', severity: 'warning', message, rfc: 'RFC 7208 §4.4', recommendation });
  return spfResult('unknown', null, message, recommendation, details);
}

function missingResult(domain: string): CheckResult<SpfDetails> {
  const message = `${domain} has no SPF record, so receivers cannot tell which servers may send its mail.`;
  const recommendation = `Publish one TXT record at ${domain} such as "v=spf1 include:<your provider> -all" listing every service that sends for you.`;
  const details = { ...emptyDetails(), issue: message };
  details.findings.push({ code: 'SPF_MISSING', severity: 'error', message, rfc: 'RFC 7208 §4.5', recommendation });
  return spfResult('missing', null, message, recommendation, details);
}

function multipleRecordsResult(domain: string, records: string[]): CheckResult<SpfDetails> {
  const message = `${domain} publishes ${records.length} SPF records; receivers treat that as a permanent error and SPF fails for all mail.`;
  const recommendation = 'Merge the records into a single "v=spf1 ..." TXT record and delete the others.';
  const details = { ...emptyDetails(), issue: message, records };
  details.findings.push({ code: 'SPF_MULTIPLE_RECORDS', severity: 'error', message, rfc: 'RFC 7208 §4.5', recommendation, records });
  return spfResult('error', records.join(' | '), message, recommendation, details);
}
