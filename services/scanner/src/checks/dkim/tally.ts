import type { Finding } from '@sendwell/contracts';
import { analyseDkimKeyRecord, looksLikeDkimKey, type DkimKeyAnalysis } from './key-record.js';
import type { Probe, ProbeSource } from './probe.js';

/** A key record as the check reports it: the analysis, with where it was found. */
export interface DkimRecordDetails extends DkimKeyAnalysis, Record<string, unknown> {
  selector: string;
  /** The TXT record as published (character-strings joined). */
  record: string;
  /** Whether the user saved this selector, a DMARC report showed mail signed with it, or it is one of the common ones probed. */
  source: ProbeSource;
  /** The subdomain the key was found under, when the reports showed it signing (absent: the scanned domain). */
  signingDomain?: string;
}

export interface DkimTally {
  /** Every key record found, in the order the selectors were asked. */
  records: DkimRecordDetails[];
  /** Selectors whose query timed out or failed, so their state is unknown. */
  selectorsFailed: string[];
  /** Per selector, in the same order: what is wrong with the user's selectors and with each key record. */
  findings: Finding[];
}

/** Every answer judged: the key records found and their findings, and the selectors whose lookup failed. */
export function tallyProbes(domain: string, probes: Probe[]): DkimTally {
  const tally: DkimTally = { records: [], selectorsFailed: [], findings: [] };
  for (const probe of probes) {
    if (probe.outcome === 'failed') {
      tally.selectorsFailed.push(probe.signingDomain ? `${probe.selector} (${probe.signingDomain})` : probe.selector);
      continue;
    }
    const keyRecords = probe.txt.filter(looksLikeDkimKey);
    tally.findings.push(...selectorFindings(domain, probe, keyRecords));
    for (const record of keyRecords) {
      const details = keyRecordDetails(probe, record);
      tally.findings.push(...details.findings);
      tally.records.push(details);
    }
  }
  return tally;
}

/** A saved selector with no key record, and a selector with several. */
function selectorFindings(scanned: string, { selector, source, txt, signingDomain }: Probe & { outcome: 'answered' }, keyRecords: string[]): Finding[] {
  const domain = signingDomain ?? scanned;
  const findings: Finding[] = [];
  if (source === 'user' && keyRecords.length === 0) findings.push(userSelectorWithoutKeyFinding(domain, selector, txt));
  if (keyRecords.length > 1) {
    findings.push({
      code: 'DKIM_MULTIPLE_RECORDS',
      severity: 'warning',
      message: `Selector "${selector}" has ${keyRecords.length} key records; verifiers pick one of them arbitrarily.`,
      rfc: 'RFC 6376 §6.1.2',
      recommendation: `Keep exactly one TXT record at ${selector}._domainkey.${domain}.`,
      selector,
    });
  }
  return findings;
}

function userSelectorWithoutKeyFinding(domain: string, selector: string, txt: string[]): Finding {
  if (txt.length === 0) {
    return {
      code: 'DKIM_SELECTOR_NOT_FOUND',
      severity: 'warning',
      message: `No DKIM record exists at your selector "${selector}" (${selector}._domainkey.${domain}).`,
      rfc: 'RFC 6376 §3.6.2.1',
      recommendation: `Publish the key your mail system gives you at ${selector}._domainkey.${domain}, or remove the selector if you no longer use it.`,
      selector,
    };
  }
  return {
    code: 'DKIM_SELECTOR_NOT_DKIM',
    severity: 'warning',
    message: `The TXT record at your selector "${selector}" is not a DKIM key record.`,
    rfc: 'RFC 6376 §3.6.1',
    recommendation: `Publish a record of the form "v=DKIM1; k=rsa; p=<public key>" at ${selector}._domainkey.${domain}.`,
    selector,
  };
}

/** One key record analysed, its findings naming the selector. */
function keyRecordDetails({ selector, source, signingDomain }: Probe, record: string): DkimRecordDetails {
  const analysis = analyseDkimKeyRecord(record, selector);
  return {
    selector,
    record,
    source,
    ...(signingDomain ? { signingDomain } : {}),
    keyType: analysis.keyType,
    keyBits: analysis.keyBits,
    keyFormat: analysis.keyFormat,
    testing: analysis.testing,
    strict: analysis.strict,
    revoked: analysis.revoked,
    hashAlgorithms: analysis.hashAlgorithms,
    serviceTypes: analysis.serviceTypes,
    notes: analysis.notes,
    usable: analysis.usable,
    findings: analysis.findings.map((finding) => ({ ...finding, selector })),
  };
}
