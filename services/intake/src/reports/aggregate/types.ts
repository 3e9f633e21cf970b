/**
 * A DMARC aggregate report, normalised across the formats receivers send: values lower-cased and
 * trimmed, absent optional elements as null (or empty lists), dates as Date.
 */
export type AggregateFormat =
  /** RFC 7489 Appendix C: <version>1.0</version> or namespace-less with the RFC's elements. */
  | 'rfc7489'
  /** The pre-RFC draft (dmarc.org 0.1 schema): no <version>, sometimes upper-case values. */
  | 'draft'
  /** DMARCbis (RFC 9990), namespace urn:ietf:params:xml:ns:dmarc-2.0. */
  | 'dmarcbis';

export interface AggregateReport {
  format: AggregateFormat;
  reporter: { orgName: string | null; email: string | null; extraContact: string | null };
  reportId: string;
  period: { begin: Date; end: Date };
  policy: PublishedPolicy;
  records: AggregateRecord[];
  /** report_metadata <error> strings: what the receiver could not do while evaluating. */
  errors: string[];
}

/** The DMARC record the receiver found (RFC 7489 §6.3 tags; DMARCbis adds np, t and discovery). */
export interface PublishedPolicy {
  domain: string;
  adkim: string | null;
  aspf: string | null;
  p: string | null;
  sp: string | null;
  np: string | null;
  pct: number | null;
  fo: string | null;
  testing: boolean | null;
  discoveryMethod: string | null;
}

export interface AggregateRecord {
  sourceIp: string;
  count: number;
  disposition: string | null;
  /** The DMARC-aligned verdicts (policy_evaluated), 'pass' or 'fail' when given. */
  dkim: string | null;
  spf: string | null;
  reasons: Array<{ type: string; comment: string | null }>;
  headerFrom: string | null;
  envelopeFrom: string | null;
  envelopeTo: string | null;
  dkimResults: Array<{ domain: string | null; selector: string | null; result: string | null }>;
  spfResults: Array<{ domain: string | null; scope: string | null; result: string | null }>;
}

/** A report without its records: what is kept of it once its records are summed into daily rows. */
export type AggregateHeader = Omit<AggregateReport, 'records'>;
