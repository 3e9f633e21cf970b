import type { Finding } from '@sendwell/contracts';
import { colonList, parseTagList, tagValue, type Tag, type TagList } from '../tag-list.js';
import { isRecordTooLarge, limitFindings, recordTooLargeFinding } from '../../input-caps.js';

/**
 * A DMARC record (RFC 7489 §6.3, grammar §6.4; `np` from RFC 9091 §4.1; `psd` and `t` from DMARCbis,
 * RFC 9989 §4.7) read tag by tag. Every fault is a finding naming the offending tag; values that are
 * wrong fall back to the defaults a receiver would use, so the rest of the check still sees the
 * record as receivers do. DMARCbis removed `pct`, `rf` and `ri`: they are still read (RFC 7489
 * receivers honour them) and each one present is an info finding.
 */

export const dmarcPolicies = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof dmarcPolicies)[number];
export type Alignment = 'relaxed' | 'strict';
/** `psd=` (RFC 9989 §4.7): y = a Public Suffix Domain, n = an Organizational Domain, u = let the tree walk decide. */
export type PsdFlag = 'y' | 'n' | 'u';

export interface DmarcUri {
  /** The URI as published, without the size limit. */
  uri: string;
  scheme: string;
  /** For mailto: the address and its domain (lower-case). */
  address: string | null;
  domain: string | null;
  /** The `!size` suffix as published (e.g. "10m") and in bytes. */
  maxSize: string | null;
  maxSizeBytes: number | null;
}

export interface DmarcRecord {
  policy: DmarcPolicy | null;
  /** `sp` as published (null when absent: subdomains inherit `p`). */
  subdomainPolicy: DmarcPolicy | null;
  /** `np` as published (RFC 9091), for non-existent subdomains. */
  nonExistentPolicy: DmarcPolicy | null;
  /** `t=y` (RFC 9989 §4.7): the policy is in testing, receivers apply one level less; default (and invalid) false. */
  testing: boolean;
  /** `psd` (RFC 9989 §4.7), 'u' when absent or invalid. */
  psd: PsdFlag;
  /** `pct` as published, null when absent or invalid (then 100 applies). */
  pct: number | null;
  adkim: Alignment;
  aspf: Alignment;
  rua: DmarcUri[];
  ruf: DmarcUri[];
  /** `fo` (default ['0']). */
  failureOptions: string[];
  /** `rf` (default ['afrf']). */
  reportFormat: string[];
  /** `ri` in seconds (default 86400). */
  reportInterval: number;
  tags: Tag[];
  findings: Finding[];
}

const KNOWN_TAGS = new Set(['v', 'p', 'sp', 'np', 'psd', 't', 'pct', 'adkim', 'aspf', 'rua', 'ruf', 'fo', 'rf', 'ri']);
/** Tags DMARCbis removed (RFC 9989 §4.7 no longer lists them), and what to say to those who still publish one. */
const REMOVED_TAGS: Record<string, { instead: string; recommendation: string }> = {
  pct: {
    instead: 'use t=y for testing instead',
    recommendation: 'To test a policy, add "t=y" (and remove it once the reports are clean); pct= only works at receivers that still follow RFC 7489.',
  },
  rf: {
    instead: 'AFRF, the only format it could name, is what receivers send',
    recommendation: 'Remove rf= (afrf, the only format, is what receivers send anyway).',
  },
  ri: {
    instead: 'receivers choose the aggregate report interval themselves, usually a day',
    recommendation: 'Remove ri= unless an RFC 7489 receiver you rely on honours it; most send reports daily anyway.',
  },
};
const SIZE_UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 };
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DEFAULT_REPORT_INTERVAL = 86_400;

/** A TXT record at `_dmarc` that receivers consider: it starts with "v=DMARC1" (RFC 7489 §6.6.3). */
export function startsWithDmarcVersion(text: string): boolean {
  return /^v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/i.test(text.trimStart());
}

/** A record that carries a DMARC version tag somewhere: meant as DMARC, even if receivers skip it. */
export function mentionsDmarcVersion(text: string): boolean {
  return /(?:^|;)[ \t]*v[ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/i.test(text.trimStart());
}

function fault(tag: string, code: string, message: string, recommendation: string, rfc = 'RFC 7489 §6.3'): Finding {
  return { code, severity: 'error', message, rfc, recommendation, tag };
}

function parsePolicy(value: string | undefined): DmarcPolicy | null | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  return (dmarcPolicies as readonly string[]).includes(lower) ? (lower as DmarcPolicy) : null;
}

function parseAlignment(tag: 'adkim' | 'aspf', value: string | undefined, findings: Finding[]): Alignment {
  if (value === undefined) return 'relaxed';
  const lower = value.toLowerCase();
  if (lower === 'r') return 'relaxed';
  if (lower === 's') return 'strict';
  findings.push(
    fault(
      tag,
      'DMARC_ALIGNMENT_INVALID',
      `The ${tag}= tag is "${value}"; it must be "r" (relaxed) or "s" (strict).`,
      `Set "${tag}=r" or "${tag}=s", or remove the tag (relaxed is the default).`,
    ),
  );
  return 'relaxed';
}

/** One entry of rua/ruf: `URI [ "!" 1*DIGIT [ "k" / "m" / "g" / "t" ] ]` (RFC 7489 §6.4). */
export function parseDmarcUri(raw: string): DmarcUri | string {
  const bang = raw.indexOf('!');
  const uri = (bang < 0 ? raw : raw.slice(0, bang)).trim();
  let maxSize: string | null = null;
  let maxSizeBytes: number | null = null;
  if (bang >= 0) {
    maxSize = raw.slice(bang + 1).trim();
    const size = /^(\d+)([kmgt]?)$/i.exec(maxSize);
    if (!size) return `"${raw}" has the size limit "!${maxSize}", which is not a number with an optional k, m, g or t`;
    maxSizeBytes = Number(size[1]) * (SIZE_UNITS[(size[2] ?? '').toLowerCase()] ?? 1);
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri);
  if (!scheme) {
    return uri.includes('@')
      ? `"${uri}" is an address, not a URI: it needs the "mailto:" prefix`
      : `"${uri}" is not a URI`;
  }
  const schemeName = (scheme[1] ?? '').toLowerCase();
  if (schemeName !== 'mailto') {
    try {
      new URL(uri);
    } catch {
      return `"${uri}" is not a valid URI`;
    }
    return { uri, scheme: schemeName, address: null, domain: null, maxSize, maxSizeBytes };
  }
  let address = uri.slice(scheme[0].length);
  const query = address.indexOf('?');
  if (query >= 0) address = address.slice(0, query);
  try {
    address = decodeURIComponent(address);
  } catch {
    return `"${uri}" has a broken %-escape`;
  }
  const at = address.lastIndexOf('@');
  const domain = at > 0 ? address.slice(at + 1).toLowerCase().replace(/\.$/, '') : '';
  if (at <= 0 || !HOSTNAME.test(domain)) return `"${uri}" is not a valid mailto: address`;
  return { uri, scheme: schemeName, address: `${address.slice(0, at)}@${domain}`, domain, maxSize, maxSizeBytes };
}

function parseUriList(tag: 'rua' | 'ruf', value: string | undefined, findings: Finding[]): DmarcUri[] {
  if (value === undefined) return [];
  const uris: DmarcUri[] = [];
  for (const part of value.split(',')) {
    const parsed = parseDmarcUri(part.trim());
    if (typeof parsed === 'string') {
      findings.push(
        fault(
          tag,
          'DMARC_URI_INVALID',
          `The ${tag}= tag is invalid: ${parsed}.`,
          `Write each address as "mailto:reports@example.com", separated by commas, e.g. "${tag}=mailto:dmarc@yourdomain".`,
          'RFC 7489 §6.4',
        ),
      );
      continue;
    }
    if (parsed.scheme !== 'mailto') {
      findings.push({
        code: 'DMARC_URI_UNSUPPORTED_SCHEME',
        severity: 'warning',
        message: `The ${tag}= destination "${parsed.uri}" uses ${parsed.scheme}:, which receivers do not send reports to; only mailto: is required of them.`,
        rfc: 'RFC 7489 §6.2',
        recommendation: 'Use a mailto: address for reports.',
        tag,
      });
    }
    uris.push(parsed);
  }
  return uris;
}

/**
 * Reads the record tag group by tag group, in the order of the grammar: the tag list itself, the
 * version, the policies, the DMARCbis flags (t, psd), pct, alignment, the report destinations, the report options, unknown tags.
 */
export function parseDmarcRecord(text: string): DmarcRecord {
  // Too large to read: the defaults of an empty record (no policy), and the one finding that says why.
  if (isRecordTooLarge(text)) return { ...parseDmarcRecord(''), findings: [recordTooLargeFinding('DMARC_RECORD_TOO_LARGE', 'DMARC record', text.length, 'RFC 7489 §6.4')] };
  const list = parseTagList(text, { lowerCaseNames: true });
  const findings: Finding[] = [...tagListFindings(list), ...versionFindings(list)];
  const { policy, subdomainPolicy, nonExistentPolicy } = readPolicies(list, findings);
  const { testing, psd } = readDmarcbisFlags(list, findings);
  const pct = readPct(list, findings);
  const adkim = parseAlignment('adkim', tagValue(list, 'adkim'), findings);
  const aspf = parseAlignment('aspf', tagValue(list, 'aspf'), findings);
  const rua = parseUriList('rua', tagValue(list, 'rua'), findings);
  const ruf = parseUriList('ruf', tagValue(list, 'ruf'), findings);
  const failureOptions = readFailureOptions(list, findings);
  const reportFormat = readReportFormat(list, findings);
  const reportInterval = readReportInterval(list, findings);
  findings.push(...removedTagFindings(list), ...unknownTagFindings(list));
  return { policy, subdomainPolicy, nonExistentPolicy, testing, psd, pct, adkim, aspf, rua, ruf, failureOptions, reportFormat, reportInterval, tags: list.tags, findings: limitFindings(findings) };
}

/** Duplicate tags and segments that are not `tag=value`. */
function tagListFindings(list: TagList): Finding[] {
  return list.faults.map((listFault) =>
    listFault.kind === 'duplicate'
      ? fault(
          listFault.name,
          'DMARC_DUPLICATE_TAG',
          `The tag "${listFault.name}=" appears more than once, which makes the record invalid.`,
          `Keep a single "${listFault.name}=" tag.`,
          'RFC 6376 §3.2',
        )
      : fault(
          listFault.segment,
          'DMARC_SYNTAX',
          `The record is not a valid tag list at "${listFault.segment}": ${listFault.reason}.`,
          'Write the record as "tag=value" pairs separated by ";", e.g. "v=DMARC1; p=reject; rua=mailto:dmarc@yourdomain".',
          'RFC 7489 §6.4',
        ),
  );
}

/** `v=DMARC1` must be the first tag, exactly so. */
function versionFindings(list: TagList): Finding[] {
  const first = list.tags[0];
  if (first?.name !== 'v') {
    return [
      fault(
        'v',
        'DMARC_VERSION_NOT_FIRST',
        tagValue(list, 'v') === undefined
          ? 'The record has no "v=DMARC1" tag; receivers ignore it.'
          : 'The "v=DMARC1" tag is not the first tag, so receivers ignore the record.',
        'Start the record with "v=DMARC1;".',
      ),
    ];
  }
  if (first.value !== 'DMARC1') {
    return [
      fault(
        'v',
        'DMARC_VERSION_INVALID',
        `The record starts with "v=${first.value}"; the version must be exactly "DMARC1".`,
        'Start the record with "v=DMARC1;" (upper case).',
      ),
    ];
  }
  return [];
}

/** `p` (required), `sp` and `np` (RFC 9091); an invalid one reads as absent. */
function readPolicies(list: TagList, findings: Finding[]): Pick<DmarcRecord, 'policy' | 'subdomainPolicy' | 'nonExistentPolicy'> {
  const rawPolicy = tagValue(list, 'p');
  const policy = parsePolicy(rawPolicy);
  if (policy === undefined) {
    findings.push(
      fault(
        'p',
        'DMARC_POLICY_MISSING',
        'The record has no p= tag, which a policy record requires; receivers treat it as p=none at best.',
        'Add "p=none" to start monitoring, then move to "p=quarantine" or "p=reject".',
      ),
    );
  } else if (policy === null) {
    findings.push(
      fault('p', 'DMARC_POLICY_INVALID', `The p= tag is "${rawPolicy ?? ''}"; it must be none, quarantine or reject.`, 'Set "p=none", "p=quarantine" or "p=reject".'),
    );
  }
  const rawSp = tagValue(list, 'sp');
  const subdomainPolicy = parsePolicy(rawSp);
  if (subdomainPolicy === null) {
    findings.push(
      fault(
        'sp',
        'DMARC_SUBDOMAIN_POLICY_INVALID',
        `The sp= tag is "${rawSp ?? ''}"; it must be none, quarantine or reject.`,
        'Set sp= to none, quarantine or reject, or remove it so subdomains follow p=.',
      ),
    );
  }
  const rawNp = tagValue(list, 'np');
  const nonExistentPolicy = parsePolicy(rawNp);
  if (nonExistentPolicy === null) {
    findings.push({
      code: 'DMARC_NP_INVALID',
      severity: 'warning',
      message: `The np= tag is "${rawNp ?? ''}"; it must be none, quarantine or reject.`,
      rfc: 'RFC 9091 §4.1',
      recommendation: 'Set np= to none, quarantine or reject, or remove it.',
      tag: 'np',
    });
  }
  return { policy: policy ?? null, subdomainPolicy: subdomainPolicy ?? null, nonExistentPolicy: nonExistentPolicy ?? null };
}

/** `t` and `psd` (RFC 9989 §4.7): RFC 7489 receivers ignore both, so a bad value is a warning and reads as the default. */
function readDmarcbisFlags(list: TagList, findings: Finding[]): Pick<DmarcRecord, 'testing' | 'psd'> {
  const rawT = tagValue(list, 't');
  const t = rawT?.toLowerCase();
  if (t !== undefined && t !== 'y' && t !== 'n') {
    findings.push({
      code: 'DMARC_T_INVALID',
      severity: 'warning',
      message: `The t= tag is "${rawT ?? ''}"; it must be "y" (testing) or "n".`,
      rfc: 'RFC 9989 §4.7',
      recommendation: 'Set "t=y" while you test the policy, or remove the tag (n, the policy applies, is the default).',
      tag: 't',
    });
  }
  const rawPsd = tagValue(list, 'psd');
  const psd = rawPsd?.toLowerCase();
  const validPsd = psd === 'y' || psd === 'n' || psd === 'u';
  if (psd !== undefined && !validPsd) {
    findings.push({
      code: 'DMARC_PSD_INVALID',
      severity: 'warning',
      message: `The psd= tag is "${rawPsd ?? ''}"; it must be "y", "n" or "u".`,
      rfc: 'RFC 9989 §4.7',
      recommendation: 'Remove the psd= tag: only public suffix operators publish psd=y, and u (let receivers decide) is the default.',
      tag: 'psd',
    });
  }
  return { testing: t === 'y', psd: validPsd ? psd : 'u' };
}

function readPct(list: TagList, findings: Finding[]): number | null {
  const rawPct = tagValue(list, 'pct');
  if (rawPct === undefined) return null;
  if (/^\d{1,3}$/.test(rawPct) && Number(rawPct) <= 100) return Number(rawPct);
  findings.push(
    fault('pct', 'DMARC_PCT_INVALID', `The pct= tag is "${rawPct}"; it must be a whole number from 0 to 100.`, 'Set "pct=100" or remove the tag (100 is the default).'),
  );
  return null;
}

function readFailureOptions(list: TagList, findings: Finding[]): string[] {
  const rawFo = tagValue(list, 'fo');
  if (rawFo === undefined) return ['0'];
  const options = colonList(rawFo).map((option) => option.toLowerCase());
  if (options.length > 0 && options.every((option) => ['0', '1', 'd', 's'].includes(option))) return options;
  findings.push(
    fault('fo', 'DMARC_FO_INVALID', `The fo= tag is "${rawFo}"; it must be a colon-separated list of 0, 1, d and s.`, 'Set e.g. "fo=1" or remove the tag.'),
  );
  return ['0'];
}

function readReportFormat(list: TagList, findings: Finding[]): string[] {
  const rawRf = tagValue(list, 'rf');
  if (rawRf === undefined) return ['afrf'];
  const formats = colonList(rawRf).map((format) => format.toLowerCase());
  if (formats.length > 0 && formats.every((format) => format === 'afrf')) return formats;
  findings.push(fault('rf', 'DMARC_RF_INVALID', `The rf= tag is "${rawRf}"; the only report format defined is "afrf".`, 'Remove the rf= tag (afrf is the default).'));
  return ['afrf'];
}

function readReportInterval(list: TagList, findings: Finding[]): number {
  const rawRi = tagValue(list, 'ri');
  if (rawRi === undefined) return DEFAULT_REPORT_INTERVAL;
  if (/^\d{1,32}$/.test(rawRi) && Number.isSafeInteger(Number(rawRi))) return Number(rawRi);
  findings.push(fault('ri', 'DMARC_RI_INVALID', `The ri= tag is "${rawRi}"; it must be a number of seconds.`, 'Remove the ri= tag (a day, 86400, is the default).'));
  return DEFAULT_REPORT_INTERVAL;
}

/** pct, rf and ri: removed by DMARCbis but still read by RFC 7489 receivers, so worth knowing, never a fault. */
function removedTagFindings(list: TagList): Finding[] {
  return Object.entries(REMOVED_TAGS)
    .filter(([name]) => tagValue(list, name) !== undefined)
    .map(([name, removed]) => ({
      code: 'DMARC_TAG_REMOVED',
      severity: 'info' as const,
      message: `The ${name}= tag is removed in DMARCbis (RFC 9989): receivers that follow it ignore the tag; ${removed.instead}.`,
      rfc: 'RFC 9989 §4.7',
      recommendation: removed.recommendation,
      tag: name,
    }));
}

/** Unknown tags MUST be ignored (§6.3), but one is usually a typo that silently drops a setting. */
function unknownTagFindings(list: TagList): Finding[] {
  return list.tags
    .filter((tag) => !KNOWN_TAGS.has(tag.name))
    .map((tag) => ({
      code: 'DMARC_UNKNOWN_TAG',
      severity: 'warning' as const,
      message: `The tag "${tag.name}=" is not a DMARC tag and receivers ignore it.`,
      rfc: 'RFC 7489 §6.3',
      recommendation: `Check "${tag.name}=" for a typo (DMARC tags: v, p, sp, np, psd, t, adkim, aspf, rua, ruf, fo, and the older pct, rf, ri) or remove it.`,
      tag: tag.name,
    }));
}
