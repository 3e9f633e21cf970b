import type { Finding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError } from '../dns/types.js';
import { analyseDkimKeyRecord, looksLikeDkimKey, type DkimKeyAnalysis } from './dkim/key-record.js';
import { COMMON_DKIM_SELECTORS, normaliseSelector } from './dkim/selectors.js';
import type { Check, CheckContext, CheckResult } from './types.js';

/**
 * DKIM (RFC 6376): probe the user's selectors and the common ones at `{selector}._domainkey.{domain}`
 * concurrently, and judge every key record found. The recursive server follows the CNAMEs that ESPs
 * have customers publish, so nothing beyond one TXT question per selector is asked.
 */

export interface DkimRecordDetails {
  selector: string;
  /** The TXT record as published (character-strings joined). */
  record: string;
  /** Whether the user saved this selector or it is one of the common ones probed. */
  source: 'user' | 'common';
  keyType: string | null;
  keyBits: number | null;
  keyFormat: DkimKeyAnalysis['keyFormat'];
  testing: boolean;
  strict: boolean;
  revoked: boolean;
  hashAlgorithms: string[] | null;
  serviceTypes: string[];
  notes: string | null;
  /** Whether a verifier would accept signatures made with this key. */
  usable: boolean;
  findings: Finding[];
}

export interface DkimDetails extends Record<string, unknown> {
  records: DkimRecordDetails[];
  /** Every selector asked about, the user's first. */
  selectorsChecked: string[];
  /** Selectors whose query timed out or failed, so their state is unknown. */
  selectorsFailed: string[];
  findings: Finding[];
}

type Probe =
  | { selector: string; source: 'user' | 'common'; outcome: 'answered'; txt: string[] }
  | { selector: string; source: 'user' | 'common'; outcome: 'failed'; reason: string };

async function probe(ctx: CheckContext, selector: string, source: 'user' | 'common'): Promise<Probe> {
  try {
    const txt = await ctx.resolver.lookup(`${selector}._domainkey.${ctx.domain}`, 'TXT');
    return { selector, source, outcome: 'answered', txt };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { selector, source, outcome: 'failed', reason: 'timed out' };
    if (error instanceof DnsServerError) return { selector, source, outcome: 'failed', reason: error.rcode };
    // A selector too long for the domain (RangeError from the name check) can hold no key.
    if (error instanceof RangeError) return { selector, source, outcome: 'answered', txt: [] };
    throw error;
  }
}

/**
 * Whether anything exists under `_domainkey.{domain}`. An NXDOMAIN there means no name below it
 * exists either (RFC 8020 §2), so none of the common selectors can hold a key and their 46 TXT
 * questions are answered by this one. A name with records below it is an empty non-terminal and
 * answers NOERROR (RFC 8020 §2, RFC 4592 §2.2.2), as does a wildcard; a timeout or a server error
 * tells nothing, so those probe every selector as before. Servers that wrongly answer NXDOMAIN
 * for empty non-terminals (RFC 8020 §3 notes old ones) would hide common-selector keys: the
 * user's saved selectors are therefore always asked directly.
 */
async function domainkeyTree(ctx: CheckContext): Promise<'absent' | 'present' | 'unknown'> {
  try {
    const response = await ctx.resolver.query(`_domainkey.${ctx.domain}`, 'TXT');
    if (response.rcode === 'NXDOMAIN') return 'absent';
    return response.rcode === 'NOERROR' ? 'present' : 'unknown';
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof RangeError) return 'unknown';
    throw error;
  }
}

function withSelector(finding: Finding, selector: string): Finding {
  return { ...finding, selector };
}

function firstRecommendation(findings: Finding[]): string | null {
  for (const severity of ['error', 'warning', 'info'] as const) {
    const found = findings.find((finding) => finding.severity === severity && finding.recommendation);
    if (found?.recommendation) return found.recommendation;
  }
  return null;
}

const ADD_SELECTOR =
  "If you sign with another selector (the s= tag of a signed message's DKIM-Signature header), add it to the domain's DKIM selectors so every scan checks it.";

export const dkimCheck: Check = async (ctx: CheckContext): Promise<CheckResult<DkimDetails>> => {
  const findings: Finding[] = [];

  const userSelectors: string[] = [];
  for (const raw of ctx.dkimSelectors) {
    const selector = normaliseSelector(raw);
    if (selector === null) {
      findings.push({
        code: 'DKIM_SELECTOR_INVALID',
        severity: 'warning',
        message: `The saved selector "${raw}" is not a valid DNS name, so it was not checked.`,
        rfc: 'RFC 6376 §3.1',
        recommendation: 'Save the selector exactly as it appears in the s= tag of your DKIM-Signature header, e.g. "s1".',
      });
    } else if (!userSelectors.includes(selector)) {
      userSelectors.push(selector);
    }
  }
  const selectorsChecked = [...userSelectors];
  for (const selector of COMMON_DKIM_SELECTORS) if (!userSelectors.includes(selector)) selectorsChecked.push(selector);

  const commonSelectors = selectorsChecked.slice(userSelectors.length);
  // The user's selectors are asked whatever happens; the common ones only if the _domainkey node exists.
  const [tree, userProbes] = await Promise.all([
    domainkeyTree(ctx),
    Promise.all(userSelectors.map((selector) => probe(ctx, selector, 'user'))),
  ]);
  const commonProbes =
    tree === 'absent'
      ? commonSelectors.map((selector): Probe => ({ selector, source: 'common', outcome: 'answered', txt: [] }))
      : await Promise.all(commonSelectors.map((selector) => probe(ctx, selector, 'common')));
  const probes = [...userProbes, ...commonProbes];

  const records: DkimRecordDetails[] = [];
  const selectorsFailed: string[] = [];
  for (const result of probes) {
    if (result.outcome === 'failed') {
      selectorsFailed.push(result.selector);
      continue;
    }
    const keyRecords = result.txt.filter(looksLikeDkimKey);
    if (result.source === 'user' && keyRecords.length === 0) {
      findings.push(
        result.txt.length === 0
          ? {
              code: 'DKIM_SELECTOR_NOT_FOUND',
              severity: 'warning',
              message: `No DKIM record exists at your selector "${result.selector}" (${result.selector}._domainkey.${ctx.domain}).`,
              rfc: 'RFC 6376 §3.6.2.1',
              recommendation: `Publish the key your mail system gives you at ${result.selector}._domainkey.${ctx.domain}, or remove the selector if you no longer use it.`,
              selector: result.selector,
            }
          : {
              code: 'DKIM_SELECTOR_NOT_DKIM',
              severity: 'warning',
              message: `The TXT record at your selector "${result.selector}" is not a DKIM key record.`,
              rfc: 'RFC 6376 §3.6.1',
              recommendation: `Publish a record of the form "v=DKIM1; k=rsa; p=<public key>" at ${result.selector}._domainkey.${ctx.domain}.`,
              selector: result.selector,
            },
      );
    }
    if (keyRecords.length > 1) {
      findings.push({
        code: 'DKIM_MULTIPLE_RECORDS',
        severity: 'warning',
        message: `Selector "${result.selector}" has ${keyRecords.length} key records; verifiers pick one of them arbitrarily.`,
        rfc: 'RFC 6376 §6.1.2',
        recommendation: `Keep exactly one TXT record at ${result.selector}._domainkey.${ctx.domain}.`,
        selector: result.selector,
      });
    }
    for (const record of keyRecords) {
      const analysis = analyseDkimKeyRecord(record, result.selector);
      const recordFindings = analysis.findings.map((finding) => withSelector(finding, result.selector));
      findings.push(...recordFindings);
      records.push({
        selector: result.selector,
        record,
        source: result.source,
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
        findings: recordFindings,
      });
    }
  }

  if (selectorsFailed.length > 0 && selectorsFailed.length < selectorsChecked.length) {
    findings.push({
      code: 'DKIM_LOOKUP_FAILED',
      severity: 'info',
      message: `The DNS lookup failed for ${selectorsFailed.length} selector(s) (${selectorsFailed.join(', ')}), so keys there could not be checked.`,
      rfc: 'RFC 6376 §6.1.2',
    });
  }

  const usable = records.filter((record) => record.usable);
  const details = (): DkimDetails => ({ records, selectorsChecked, selectorsFailed, findings });
  // Usable keys first: the card shows what signs the mail before what is left over.
  const summary = [...records.filter((record) => record.usable), ...records.filter((record) => !record.usable)]
    .map(summarise)
    .join('; ');

  if (usable.length > 0) {
    if (usable.every((record) => record.keyType === 'ed25519')) {
      findings.push({
        code: 'DKIM_ED25519_ONLY',
        severity: 'warning',
        message: 'Every DKIM key found is Ed25519, which many receivers do not verify yet; they must support RSA.',
        rfc: 'RFC 8301 §3.1',
        recommendation: 'Sign with an RSA-2048 key as well (a second selector), so every receiver can verify your mail.',
      });
    }
    const weak = findings.some((finding) => finding.severity !== 'info');
    const names = usable.map((record) => record.selector);
    return {
      type: 'dkim',
      status: weak ? 'warning' : 'valid',
      value: summary,
      message: weak
        ? `DKIM keys found (${[...new Set(names)].join(', ')}), with issues to fix.`
        : `DKIM is set up: valid keys at ${[...new Set(names)].join(', ')}.`,
      recommendation: weak ? firstRecommendation(findings) : null,
      details: details(),
    };
  }

  const broken = records.filter((record) => !record.revoked);
  if (broken.length > 0) {
    return {
      type: 'dkim',
      status: 'error',
      value: summary,
      message: `DKIM keys were found (${[...new Set(broken.map((record) => record.selector))].join(', ')}) but none is usable by receivers.`,
      recommendation: firstRecommendation(findings),
      details: details(),
    };
  }

  if (records.length > 0) {
    findings.push({
      code: 'DKIM_NO_ACTIVE_KEY',
      severity: 'warning',
      message: 'Only revoked DKIM keys were found, so mail from this domain carries no verifiable signature.',
      rfc: 'RFC 6376 §3.6.1',
      recommendation: `Enable DKIM signing at your mail provider and publish its key. ${ADD_SELECTOR}`,
    });
    return {
      type: 'dkim',
      status: 'warning',
      value: summary,
      message: `Only revoked DKIM keys were found (${records.map((record) => record.selector).join(', ')}).`,
      recommendation: firstRecommendation(findings),
      details: details(),
    };
  }

  const userFailed = probes.some((result) => result.source === 'user' && result.outcome === 'failed');
  if (selectorsFailed.length === selectorsChecked.length || userFailed) {
    return {
      type: 'dkim',
      status: 'unknown',
      value: null,
      message: 'DKIM could not be checked because the DNS lookups failed; the next scan will try again.',
      recommendation: null,
      details: details(),
    };
  }

  const userPart = userSelectors.length > 0 ? `your selector(s) ${userSelectors.join(', ')} and ` : '';
  findings.push({
    code: 'DKIM_MISSING',
    severity: 'error',
    message: `No DKIM key was found at any of the selectors probed: ${selectorsChecked.join(', ')}.`,
    rfc: 'RFC 6376 §3.6.2.1',
    recommendation: `Enable DKIM signing at your mail provider and publish the key it gives you. ${ADD_SELECTOR}`,
  });
  return {
    type: 'dkim',
    status: 'missing',
    value: null,
    message: `No DKIM key found at ${userPart}${selectorsChecked.length - userSelectors.length} common selectors; add your selector in the domain's settings if you use another.`,
    recommendation: `Enable DKIM signing at your mail provider and publish its key. ${ADD_SELECTOR}`,
    details: details(),
  };
};

function summarise(record: DkimRecordDetails): string {
  if (record.revoked) return `${record.selector}: revoked`;
  const type = record.keyType ?? 'unknown';
  return record.keyBits === null ? `${record.selector}: ${type}` : `${record.selector}: ${type} ${record.keyBits}`;
}
