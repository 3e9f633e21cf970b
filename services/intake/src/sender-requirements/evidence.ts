import type { MailTestAnalysis, RequirementEvidence, SenderRequirementId } from '@sendwell/contracts';

/**
 * What the verdict is judged from, gathered by the repository: only the essentials of each source, so
 * the judging (verdict.ts) is pure and tested without a database.
 */

/** A check of the latest completed scan, as the scanner stored it. */
export interface DnsCheck {
  /** The scanner's status: valid, success, warning, error, missing, unknown. */
  status: string;
  /** The check's own one-line message (why an error is an error). */
  message: string | null;
}

export interface DnsEvidence {
  scanId: string;
  completedAt: Date;
  /** null where the scan has no such check. */
  spf: (DnsCheck & { record: string | null }) | null;
  /** keys: selectors with a usable, unrevoked key. */
  dkim: (DnsCheck & { keys: string[] }) | null;
  /** policy: the p= tag; inherited: the record is the organisational domain's. */
  dmarc: (DnsCheck & { record: string | null; policy: string | null; inherited: boolean }) | null;
}

/** Authorised senders' mail over the window (spoofers and forwarders left out), from the aggregate reports. */
export interface MailFlowEvidence {
  /** UTC days, both included. */
  from: string;
  to: string;
  messages: number;
  /** Messages passing SPF for any domain (aligned or the sender's own MAIL FROM). */
  spfPass: number;
  /** Messages with a passing DKIM signature (aligned or not). */
  dkimPass: number;
  /** Messages passing DMARC: SPF or DKIM aligned. */
  dmarcPass: number;
  /** Sending addresses the namer has looked up, and those of them with forward-confirmed reverse DNS. */
  addressesLookedUp: number;
  addressesConfirmed: number;
  /** The busiest looked-up addresses without a confirmed name (a few; the count is looked-up − confirmed). */
  unconfirmed: string[];
  /** Addresses the namer has not looked up yet: no evidence either way. */
  addressesPending: number;
}

export interface MailTestEvidence {
  id: number;
  receivedAt: Date;
  analysis: MailTestAnalysis;
}

export interface VerdictInput {
  domainId: number;
  domain: string;
  evaluatedAt: Date;
  /** null: no completed scan. */
  dns: DnsEvidence | null;
  /** 'plan': the plan has no mail flow; null: no authorised mail reported in the window. */
  mailFlow: MailFlowEvidence | 'plan' | null;
  /** 'plan': the plan has no Inbox Testing; null: no test message from the domain recently. */
  mailTest: MailTestEvidence | 'plan' | null;
}

/** One source's evidence, by requirement (a requirement the source cannot tell is absent). */
export type SourceEvidence = Partial<Record<SenderRequirementId, RequirementEvidence>>;
