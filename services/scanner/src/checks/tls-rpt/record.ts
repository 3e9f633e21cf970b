import type { Finding } from '@sendwell/contracts';
import { isRecordTooLarge, limitFindings, MAX_FINDINGS_PER_CODE, recordTooLargeFinding, trimBlanksEnd, trimBlanksStart } from '../input-caps.js';

/**
 * The `_smtp._tls.{domain}` TXT record (RFC 8460 §3):
 *   tlsrpt-record = tlsrpt-version 1*(field-delim tlsrpt-field) [field-delim]
 *   field-delim = *WSP ";" *WSP;  tlsrpt-version = %s"v=TLSRPTv1"
 *   tlsrpt-rua = %s"rua=" tlsrpt-uri *(*WSP "," *WSP tlsrpt-uri)   ; mailto: or https:
 *   tlsrpt-extension = (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / ".") "=" 1*(%x21-3A / %x3C / %x3E-7E)
 * Senders discard records that do not start with "v=TLSRPTv1"; several remaining ones mean the
 * domain does not implement TLS-RPT.
 */

export interface TlsRptRecord {
  /** Every `rua` URI as published, in order. */
  rua: string[];
  /** The URIs that are valid mailto: or https: destinations. */
  validRua: string[];
  findings: Finding[];
}

const RFC = 'RFC 8460 §3';
const FIELD_NAME = /^[A-Z0-9][\w.-]{0,31}$/i;
const FIELD_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const EXAMPLE = (domain: string) => `"v=TLSRPTv1; rua=mailto:tls-reports@${domain}"`;

/** A record senders consider: it starts with "v=TLSRPTv1" (case-sensitive), followed by ";", blanks or nothing. */
export function isTlsRptRecord(text: string): boolean {
  return /^v=TLSRPTv1(?:[ \t;]|$)/.test(text);
}

/** Meant as a TLS-RPT record but ignored by senders (wrong case, blanks, a typo in the version). */
export function looksLikeTlsRptRecord(text: string): boolean {
  return !isTlsRptRecord(text) && /^\s*v\s*=\s*tlsrpt/i.test(text);
}

/** Why a `rua` URI is no report destination, or null when it is a valid mailto: or https: URI. */
export function ruaProblem(uri: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined) return uri.includes('@') ? 'an address, not a URI: it needs the "mailto:" prefix' : 'not a URI';
  if (scheme === 'mailto') {
    let address = uri.slice('mailto:'.length).split('?')[0] ?? '';
    try {
      address = decodeURIComponent(address);
    } catch {
      return 'a mailto: URI with a broken %-escape';
    }
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at);
    const domain = address.slice(at + 1).toLowerCase();
    return at > 0 && !/\s/.test(local) && HOSTNAME.test(domain) ? null : 'not a valid mailto: address';
  }
  if (scheme === 'https') {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return 'not a valid https: URL';
    }
    return url.hostname === '' || url.username !== '' || url.password !== '' ? 'not a valid https: URL' : null;
  }
  return scheme === 'http' ? 'an http: URL; reports are only sent over https:' : `a URI of scheme ${scheme}:, while only mailto: and https: are report destinations`;
}

function syntaxFault(message: string, domain: string): Finding {
  return { code: 'TLS_RPT_RECORD_INVALID', severity: 'error', message, rfc: RFC, recommendation: `Publish the record as ${EXAMPLE(domain)} (fields separated by ";").` };
}

export function parseTlsRptRecord(text: string, domain: string): TlsRptRecord {
  const findings: Finding[] = [];
  const rua: string[] = [];
  const validRua: string[] = [];
  let ruaSeen = false;
  if (isRecordTooLarge(text)) return { rua, validRua, findings: [recordTooLargeFinding('TLS_RPT_RECORD_TOO_LARGE', 'TLS-RPT record', text.length, RFC)] };
  const rest = trimBlanksStart(trimBlanksEnd(text.slice('v=TLSRPTv1'.length)));
  if (rest !== '' && !rest.startsWith(';')) {
    findings.push(syntaxFault(`The record "${text}" has no ";" after "v=TLSRPTv1", so senders cannot read it.`, domain));
    return { rua, validRua, findings };
  }
  // One trailing ";" (and the blanks before it, already trimmed) ends the record.
  const body = rest.slice(1).replace(/;$/, '');
  const segments = body.trim() === '' ? [] : body.split(';');
  let invalidFields = 0;
  for (const raw of segments) {
    const segment = raw.trim();
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    const value = eq < 0 ? '' : segment.slice(eq + 1);
    if (name === 'rua' && eq >= 0) {
      ruaSeen = true;
      for (const uri of value.split(',').map((part) => part.trim())) {
        rua.push(uri);
        const problem = ruaProblem(uri);
        if (problem === null) validRua.push(uri);
        else findings.push(ruaFault(uri, problem, domain));
      }
      continue;
    }
    if (eq < 0 || !FIELD_NAME.test(name) || !FIELD_VALUE.test(value)) {
      // Past the cap limitFindings drops them: not building them keeps 8 KB of ";" cheap.
      if (++invalidFields > MAX_FINDINGS_PER_CODE) continue;
      const where = segment === '' ? 'an empty field (two ";" in a row)' : `"${segment}"`;
      findings.push(syntaxFault(`The record is not a valid list of fields at ${where}: each field must be "name=value", separated by ";".`, domain));
      continue;
    }
    findings.push({
      code: 'TLS_RPT_UNKNOWN_FIELD',
      severity: 'info',
      message: `The field "${name}=" is not part of TLS-RPT and senders ignore it.`,
      rfc: RFC,
      recommendation: `Check "${name}=" for a typo (TLS-RPT fields: v, rua) or remove it.`,
      field: name,
    });
  }
  if (!ruaSeen) {
    findings.push({
      code: 'TLS_RPT_RUA_MISSING',
      severity: 'error',
      message: 'The TLS-RPT record has no rua= field, so senders have nowhere to send reports.',
      rfc: RFC,
      recommendation: `Add a report destination: ${EXAMPLE(domain)}.`,
    });
  }
  return { rua, validRua, findings: limitFindings(findings) };
}

function ruaFault(uri: string, problem: string, domain: string): Finding {
  return {
    code: 'TLS_RPT_RUA_INVALID',
    severity: 'error',
    message: `The rua destination "${uri === '' ? '(empty)' : uri}" is ${problem}, so senders cannot send reports to it.`,
    rfc: RFC,
    recommendation: `Write each destination as "mailto:address" or "https://host/path", separated by commas, e.g. ${EXAMPLE(domain)}; encode "," and ";" inside a URI as %2C and %3B.`,
    uri,
  };
}
