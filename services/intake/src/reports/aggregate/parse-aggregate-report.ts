/**
 * Reads one DMARC aggregate report document into an AggregateReport. Three formats:
 *  - RFC 7489 Appendix C: feedback > version?, report_metadata, policy_published, record*;
 *  - the pre-RFC draft receivers sent before it (no <version>, no namespace, upper-case values,
 *    DKIM results without a selector);
 *  - DMARCbis (RFC 9990), namespace urn:ietf:params:xml:ns:dmarc-2.0: policy_published gains np,
 *    testing and discovery_method and loses pct; report_metadata may carry a generator.
 * Tolerant where receivers deviate (white space, case, missing optional or unknown elements,
 * <extension>, namespace prefixes), strict where the report would mean nothing: a policy domain,
 * a report id, a date range, and per record a source IP and a non-negative integer count.
 * Caps (limits.ts): element depth and text length while reading, `aggregateRecords` records.
 */
import { isIP } from 'node:net';
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { refuse } from '../refusal.js';
import type { AggregateFormat, AggregateRecord, AggregateReport, PublishedPolicy } from './types.js';
import { decodeXml, readXmlElements, type XmlElement } from './xml-elements.js';

const DMARCBIS_NAMESPACE = 'urn:ietf:params:xml:ns:dmarc-2.0';
/** Unix seconds up to year 9999; more digits than that is no date. */
const UNIX_SECONDS = /^\d{1,12}$/;
const COUNT = /^\d{1,15}$/;
const PERCENT = /^\d{1,3}$/;

function notAReport(detail: string): never {
  refuse('NOT_AN_AGGREGATE_REPORT', `This is not a usable DMARC aggregate report: ${detail}.`);
}

function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((candidate) => candidate.name === name);
}

function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((candidate) => candidate.name === name) ?? [];
}

/** Trimmed text of the named child; null when absent or empty. */
function textOf(element: XmlElement | undefined, name: string): string | null {
  const text = child(element, name)?.text.trim();
  return text ? text : null;
}

/** Keywords (dispositions, results, policies) are case-insensitive; the draft's receivers wrote PASS. */
function keywordOf(element: XmlElement | undefined, name: string): string | null {
  return textOf(element, name)?.toLowerCase() ?? null;
}

/** Domains compare case-insensitively (RFC 4343) and may carry a root dot. */
function domainOf(element: XmlElement | undefined, name: string): string | null {
  return keywordOf(element, name)?.replace(/\.$/, '') || null;
}

function formatOf(root: XmlElement): AggregateFormat {
  const declaresBis = Object.entries(root.attributes).some(([name, value]) => (name === 'xmlns' || name.startsWith('xmlns:')) && value.trim() === DMARCBIS_NAMESPACE);
  if (declaresBis) return 'dmarcbis';
  return child(root, 'version') ? 'rfc7489' : 'draft';
}

function unixSeconds(range: XmlElement | undefined, name: 'begin' | 'end'): Date {
  const value = textOf(range, name);
  if (value === null) notAReport(`<report_metadata><date_range> has no <${name}>`);
  if (!UNIX_SECONDS.test(value)) notAReport(`<date_range><${name}> is "${value.slice(0, 40)}", not a time in Unix seconds`);
  return new Date(Number(value) * 1000);
}

function readPolicy(published: XmlElement | undefined): PublishedPolicy {
  if (!published) notAReport('it has no <policy_published>');
  const domain = domainOf(published, 'domain');
  if (domain === null) notAReport('<policy_published> has no <domain>');
  const pct = textOf(published, 'pct');
  const testing = keywordOf(published, 'testing');
  return {
    domain,
    adkim: keywordOf(published, 'adkim'),
    aspf: keywordOf(published, 'aspf'),
    p: keywordOf(published, 'p'),
    sp: keywordOf(published, 'sp'),
    np: keywordOf(published, 'np'),
    pct: pct !== null && PERCENT.test(pct) && Number(pct) <= 100 ? Number(pct) : null,
    fo: keywordOf(published, 'fo'),
    testing: testing === 'y' ? true : testing === 'n' ? false : null,
    discoveryMethod: keywordOf(published, 'discovery_method'),
  };
}

function readRecord(record: XmlElement, number: number): AggregateRecord {
  const row = child(record, 'row');
  if (!row) notAReport(`record ${number} has no <row>`);
  const sourceIp = textOf(row, 'source_ip');
  if (sourceIp === null || isIP(sourceIp) === 0) notAReport(`record ${number}: <source_ip> ${sourceIp === null ? 'is missing' : `"${sourceIp.slice(0, 60)}" is not an IP address`}`);
  const count = textOf(row, 'count');
  if (count === null || !COUNT.test(count)) notAReport(`record ${number}: <count> ${count === null ? 'is missing' : `"${count.slice(0, 40)}" is not a non-negative whole number`}`);
  const evaluated = child(row, 'policy_evaluated');
  // Some early receivers wrote <identities> for <identifiers>.
  const identifiers = child(record, 'identifiers') ?? child(record, 'identities');
  const auth = child(record, 'auth_results');
  return {
    sourceIp: sourceIp.toLowerCase(),
    count: Number(count),
    disposition: keywordOf(evaluated, 'disposition'),
    dkim: keywordOf(evaluated, 'dkim'),
    spf: keywordOf(evaluated, 'spf'),
    reasons: childrenNamed(evaluated, 'reason').flatMap((reason) => {
      const type = keywordOf(reason, 'type');
      return type === null ? [] : [{ type, comment: textOf(reason, 'comment') }];
    }),
    headerFrom: domainOf(identifiers, 'header_from'),
    envelopeFrom: domainOf(identifiers, 'envelope_from'),
    envelopeTo: domainOf(identifiers, 'envelope_to'),
    dkimResults: childrenNamed(auth, 'dkim').map((dkim) => ({ domain: domainOf(dkim, 'domain'), selector: textOf(dkim, 'selector'), result: keywordOf(dkim, 'result') })),
    spfResults: childrenNamed(auth, 'spf').map((spf) => ({ domain: domainOf(spf, 'domain'), scope: keywordOf(spf, 'scope'), result: keywordOf(spf, 'result') })),
  };
}

export function parseAggregateReport(xml: Uint8Array | string, limits: ReportLimits = REPORT_LIMITS): AggregateReport {
  const records: AggregateRecord[] = [];
  const root = readXmlElements(typeof xml === 'string' ? xml : decodeXml(xml), limits, {
    name: 'record',
    onElement: (record) => {
      if (records.length >= limits.aggregateRecords) {
        refuse('TOO_MANY_RECORDS', `The report has more than ${limits.aggregateRecords.toLocaleString('en')} records, more than any real daily report.`);
      }
      records.push(readRecord(record, records.length + 1));
    },
  });
  if (root.name !== 'feedback') notAReport(`its root element is <${root.name.slice(0, 40)}>, not <feedback>`);

  const metadata = child(root, 'report_metadata');
  if (!metadata) notAReport('it has no <report_metadata>');
  const reportId = textOf(metadata, 'report_id');
  if (reportId === null) notAReport('<report_metadata> has no <report_id>');
  const range = child(metadata, 'date_range');
  if (!range) notAReport('<report_metadata> has no <date_range>');
  const begin = unixSeconds(range, 'begin');
  const end = unixSeconds(range, 'end');
  if (end < begin) notAReport('<date_range> ends before it begins');

  return {
    format: formatOf(root),
    reporter: { orgName: textOf(metadata, 'org_name'), email: textOf(metadata, 'email'), extraContact: textOf(metadata, 'extra_contact_info') },
    reportId,
    period: { begin, end },
    policy: readPolicy(child(root, 'policy_published')),
    records,
    errors: childrenNamed(metadata, 'error').flatMap((error) => (error.text.trim() ? [error.text.trim()] : [])),
  };
}
