import type { CheckStatus, Finding } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { Probe } from './probe.js';
import type { SelectorPlan } from './selectors.js';
import type { DkimRecordDetails, DkimTally } from './tally.js';

/**
 * What the keys found add up to: some sign the mail (`signing`), none is usable (`unusable`), all are
 * revoked (`revoked`), DNS failed too much to tell (`unknown`), or no selector holds a key (`missing`).
 */
export type DkimOutcome = 'signing' | 'unusable' | 'revoked' | 'unknown' | 'missing';

export interface DkimVerdict {
  status: CheckStatus;
  value: string | null;
  message: string;
  recommendation: string | null;
}

const ADD_SELECTOR =
  "If you sign with another selector (the s= tag of a signed message's DKIM-Signature header), add it to the domain's DKIM selectors so every scan checks it.";

export function dkimOutcome(plan: SelectorPlan, probes: Probe[], { records, selectorsFailed }: DkimTally): DkimOutcome {
  if (records.some((record) => record.usable)) return 'signing';
  if (records.some((record) => !record.revoked)) return 'unusable';
  if (records.length > 0) return 'revoked';
  const userFailed = probes.some((probe) => probe.source === 'user' && probe.outcome === 'failed');
  return selectorsFailed.length === plan.selectorsChecked.length || userFailed ? 'unknown' : 'missing';
}

/** Findings about the scan as a whole: failed lookups, then what the outcome lacks. */
export function overallFindings(outcome: DkimOutcome, plan: SelectorPlan, { records, selectorsFailed }: DkimTally): Finding[] {
  const findings: Finding[] = [];
  if (selectorsFailed.length > 0 && selectorsFailed.length < plan.selectorsChecked.length) {
    findings.push({
      code: 'DKIM_LOOKUP_FAILED',
      severity: 'info',
      message: `The DNS lookup failed for ${selectorsFailed.length} selector(s) (${selectorsFailed.join(', ')}), so keys there could not be checked.`,
      rfc: 'RFC 6376 §6.1.2',
    });
  }
  if (outcome === 'signing' && usableKeys(records).every((record) => record.keyType === 'ed25519')) {
    findings.push({
      code: 'DKIM_ED25519_ONLY',
      severity: 'warning',
      message: 'Every DKIM key found is Ed25519, which many receivers do not verify yet; they must support RSA.',
      rfc: 'RFC 8301 §3.1',
      recommendation: 'Sign with an RSA-2048 key as well (a second selector), so every receiver can verify your mail.',
    });
  }
  if (outcome === 'revoked') {
    findings.push({
      code: 'DKIM_NO_ACTIVE_KEY',
      severity: 'warning',
      message: 'Only revoked DKIM keys were found, so mail from this domain carries no verifiable signature.',
      rfc: 'RFC 6376 §3.6.1',
      recommendation: `Enable DKIM signing at your mail provider and publish its key. ${ADD_SELECTOR}`,
    });
  }
  if (outcome === 'missing') {
    findings.push({
      code: 'DKIM_MISSING',
      severity: 'error',
      message: `No DKIM key was found at any of the selectors probed: ${plan.selectorsChecked.join(', ')}.`,
      rfc: 'RFC 6376 §3.6.2.1',
      recommendation: `Enable DKIM signing at your mail provider and publish the key it gives you. ${ADD_SELECTOR}`,
    });
  }
  return findings;
}

/** The status, value and message of each outcome; `findings` are all of the scan's, the overall ones included. */
export function dkimVerdict(outcome: DkimOutcome, findings: Finding[], plan: SelectorPlan, { records }: DkimTally): DkimVerdict {
  const selectors = (list: DkimRecordDetails[]) => [...new Set(list.map((record) => record.selector))].join(', ');
  switch (outcome) {
    case 'signing': {
      const weak = findings.some((finding) => finding.severity !== 'info');
      return {
        status: weak ? 'warning' : 'valid',
        value: summarise(records),
        message: weak ? `DKIM keys found (${selectors(usableKeys(records))}), with issues to fix.` : `DKIM is set up: valid keys at ${selectors(usableKeys(records))}.`,
        recommendation: weak ? mostSevereRecommendation(findings) : null,
      };
    }
    case 'unusable':
      return {
        status: 'error',
        value: summarise(records),
        message: `DKIM keys were found (${selectors(records.filter((record) => !record.revoked))}) but none is usable by receivers.`,
        recommendation: mostSevereRecommendation(findings),
      };
    case 'revoked':
      return {
        status: 'warning',
        value: summarise(records),
        message: `Only revoked DKIM keys were found (${records.map((record) => record.selector).join(', ')}).`,
        recommendation: mostSevereRecommendation(findings),
      };
    case 'unknown':
      return { status: 'unknown', value: null, message: 'DKIM could not be checked because the DNS lookups failed; the next scan will try again.', recommendation: null };
    case 'missing':
      return missingVerdict(plan);
  }
}

function missingVerdict({ userSelectors, reportSelectors, commonSelectors }: SelectorPlan): DkimVerdict {
  const userPart = userSelectors.length > 0 ? `your selector(s) ${userSelectors.join(', ')} and ` : '';
  const reportPart = reportSelectors.length > 0 ? `${reportSelectors.length} selector(s) seen in your DMARC reports and ` : '';
  return {
    status: 'missing',
    value: null,
    message: `No DKIM key found at ${userPart}${reportPart}${commonSelectors.length} common selectors; add your selector in the domain's settings if you use another.`,
    recommendation: `Enable DKIM signing at your mail provider and publish its key. ${ADD_SELECTOR}`,
  };
}

function usableKeys(records: DkimRecordDetails[]): DkimRecordDetails[] {
  return records.filter((record) => record.usable);
}

/** The keys as the card shows them, usable ones first: what signs the mail before what is left over. */
function summarise(records: DkimRecordDetails[]): string {
  return [...usableKeys(records), ...records.filter((record) => !record.usable)].map(describeKey).join('; ');
}

function describeKey(record: DkimRecordDetails): string {
  if (record.revoked) return `${record.selector}: revoked`;
  const type = record.keyType ?? 'unknown';
  return record.keyBits === null ? `${record.selector}: ${type}` : `${record.selector}: ${type} ${record.keyBits}`;
}
