import { isIP } from 'node:net';
import type { Finding } from '@sendwell/contracts';
import { parseTagList, tagValue, type TagList } from '../shared/tag-list.js';
import { isRecordTooLarge, limitFindings, recordTooLargeFinding } from '../input-caps.js';
import { DRAFT } from './findings.js';

/**
 * The BIMI Assertion Record at `{selector}._bimi.{domain}` (draft-brand-indicators-for-message-identification
 * §4.3): a DKIM-style tag-list that starts with `v=BIMI1`, then `l=` (the logo's HTTPS URI, required,
 * empty to decline), `a=` (the HTTPS URI of the Mark Certificate, optional), `lps=` and `avp=`.
 * Receivers do not repair errors (§4.3), so every fault is reported as it stands.
 */

export interface BimiRecord {
  /** `l=` when it is a usable HTTPS URI, else null. */
  logoUrl: URL | null;
  /** `a=` when it is a usable HTTPS URI, else null. */
  authorityUrl: URL | null;
  /** `l=` and `a=` as published (undefined when the tag is absent). */
  l: string | undefined;
  a: string | undefined;
  /** Both `l=` and `a=` empty: an explicit refusal to take part (§4.3.1). */
  declined: boolean;
  findings: Finding[];
}

const KNOWN_TAGS = new Set(['v', 'l', 'a', 'lps', 'avp']);
/** Image formats the l= URI must not name: only SVG (and SVGZ) are BIMI formats (§4.3.2). */
const OTHER_IMAGE_SUFFIX = /\.(?:png|jpe?g|gif|webp|bmp|ico|tiff?|avif|heic)$/i;
const EXAMPLE = 'v=BIMI1; l=https://yourdomain/bimi/logo.svg; a=https://yourdomain/bimi/vmc.pem';

/** A record receivers consider: it starts with the version tag, exactly "BIMI1" (§4.3, §7.2 step 4). */
export function isBimiRecord(text: string): boolean {
  return /^v[ \t]*=[ \t]*BIMI1[ \t]*(?:;|$)/.test(text);
}

/** Meant as a BIMI record but discarded by receivers (wrong case, the version elsewhere, a typo). */
export function looksLikeBimiRecord(text: string): boolean {
  return !isBimiRecord(text) && /(?:^|;)\s*v\s*=\s*bimi/i.test(text);
}

function recordFault(message: string, tag?: string): Finding {
  return {
    code: 'BIMI_RECORD_INVALID',
    severity: 'error',
    message,
    rfc: `${DRAFT} §4.3`,
    recommendation: `Publish the record as "${EXAMPLE}" (tags separated by ";").`,
    ...(tag ? { tag } : {}),
  };
}

/** An HTTPS URI with a host name, or the reason it is not one (§4.3: "MUST specify HTTPS", a= "MUST contain a FQDN"). */
function readUri(value: string, requireName: boolean): URL | string {
  if (/[\s,]/.test(value)) return 'it holds more than one URI (commas and blanks must be percent-encoded)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a valid URI';
  }
  if (url.protocol !== 'https:') return `it uses ${url.protocol.replace(/:$/, '')} instead of https`;
  if (url.username || url.password) return 'it carries a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (requireName && (isIP(host) || !host.includes('.'))) return 'it does not name a fully qualified host';
  return url;
}

function logoUrlOf(value: string | undefined, findings: Finding[]): URL | null {
  if (value === undefined || value === '') return null;
  const url = readUri(value, false);
  const problem = typeof url === 'string' ? url : OTHER_IMAGE_SUFFIX.test(url.pathname) ? 'it names an image format other than SVG' : null;
  if (problem === null) return url as URL;
  findings.push({
    code: 'BIMI_LOGO_URL_INVALID',
    severity: 'error',
    message: `The logo location l=${value} is unusable: ${problem}, so receivers show no logo.`,
    rfc: `${DRAFT} §4.3`,
    recommendation: 'Set l= to the https:// URL of your SVG Tiny PS logo, e.g. "l=https://yourdomain/bimi/logo.svg".',
    tag: 'l',
  });
  return null;
}

function authorityUrlOf(value: string | undefined, findings: Finding[]): URL | null {
  if (value === undefined || value === '') return null;
  const url = readUri(value, true);
  if (typeof url !== 'string') return url;
  findings.push({
    code: 'BIMI_AUTHORITY_URL_INVALID',
    severity: 'error',
    message: `The certificate location a=${value} is unusable: ${url}, so receivers cannot verify the logo.`,
    rfc: `${DRAFT} §4.3`,
    recommendation: 'Set a= to the https:// URL of the PEM file your Mark Verifying Authority issued, e.g. "a=https://yourdomain/bimi/vmc.pem".',
    tag: 'a',
  });
  return null;
}

function listFindings(list: TagList): Finding[] {
  return list.faults.map((fault) =>
    fault.kind === 'duplicate'
      ? recordFault(`The tag "${fault.name}=" appears more than once, which makes the record invalid.`, fault.name)
      : recordFault(`The record is not a valid tag list at "${fault.segment}": ${fault.reason}.`),
  );
}

/** lps= and avp= take fixed words (§4.3); receivers may treat another value as a failing record. */
function optionFindings(list: TagList): Finding[] {
  const findings: Finding[] = [];
  const allowed: Record<string, string[]> = { lps: ['true', 'false'], avp: ['brand', 'personal'] };
  for (const [tag, values] of Object.entries(allowed)) {
    const value = tagValue(list, tag);
    if (value === undefined || values.includes(value)) continue;
    findings.push({
      code: 'BIMI_TAG_INVALID',
      severity: 'warning',
      message: `The tag ${tag}=${value} is not one of ${values.join(' or ')}; receivers ignore it or reject the record.`,
      rfc: `${DRAFT} §4.3`,
      recommendation: `Set ${tag}=${values[0]} or ${values[1]}, or remove the tag.`,
      tag,
    });
  }
  for (const { name } of list.tags) {
    if (KNOWN_TAGS.has(name)) continue;
    findings.push({ code: 'BIMI_UNKNOWN_TAG', severity: 'info', message: `The tag "${name}=" is not a BIMI tag; receivers ignore it.`, rfc: `${DRAFT} §4.3`, tag: name });
  }
  return findings;
}

/** `text` must pass isBimiRecord. */
export function parseBimiRecord(text: string): BimiRecord {
  // Too large to read: a record with no tags (no logo, nothing declined), and the one finding that says why.
  if (isRecordTooLarge(text)) return { logoUrl: null, authorityUrl: null, l: undefined, a: undefined, declined: false, findings: [recordTooLargeFinding('BIMI_RECORD_TOO_LARGE', 'BIMI record', text.length, `${DRAFT} §4.3`)] };
  const list = parseTagList(text);
  const findings = listFindings(list);
  const l = tagValue(list, 'l');
  const a = tagValue(list, 'a');
  if (l === undefined) findings.push(recordFault('The record has no l= tag, which is required (empty to decline BIMI), so receivers reject it.', 'l'));
  const declined = l === '' && (a === undefined || a === '');
  if (l === '' && !declined) {
    findings.push({
      code: 'BIMI_LOGO_URL_MISSING',
      severity: 'error',
      message: 'The record has an empty l= but a certificate in a=: without a logo location receivers show no logo.',
      rfc: `${DRAFT} §7.3`,
      recommendation: 'Set l= to the https:// URL of the same SVG logo your Mark Certificate carries.',
      tag: 'l',
    });
  }
  const logoUrl = logoUrlOf(l, findings);
  const authorityUrl = authorityUrlOf(a, findings);
  findings.push(...optionFindings(list));
  return { logoUrl, authorityUrl, l, a, declined, findings: limitFindings(findings) };
}
