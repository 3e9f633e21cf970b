import type { Finding } from '@sendwell/contracts';
import { isRecordTooLarge, limitFindings, MAX_FINDINGS_PER_CODE, recordTooLargeFinding, trimBlanksEnd, trimBlanksStart } from '../input-caps.js';

/**
 * The `_mta-sts.{domain}` TXT record (RFC 8461 §3.1):
 *   sts-text-record = sts-version 1*(*WSP ";" *WSP sts-field) [";"]
 *   sts-version = %s"v=STSv1";  sts-id = %s"id=" 1*32(ALPHA / DIGIT)
 *   sts-extension = (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / ".") "=" 1*(%x21-3A / %x3C / %x3E-7E)
 * Senders discard TXT records that do not start with "v=STSv1"; several remaining ones, or an invalid
 * one, mean the domain has no usable policy.
 */

export interface StsRecord {
  /** `id=` as published when it is valid (1 to 32 letters and digits), else null. */
  id: string | null;
  /** Fields other than `id`, which senders ignore. */
  extensions: Array<{ name: string; value: string }>;
  findings: Finding[];
}

const RFC = 'RFC 8461 §3.1';
const FIELD_NAME = /^[A-Z0-9][\w.-]{0,31}$/i;
const FIELD_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;
const ID = /^[A-Z0-9]{1,32}$/i;
/** An id in the usual form: the date and time the policy changed. */
const EXAMPLE_ID = '20250101000000';

/** A record senders consider: it starts with "v=STSv1" (case-sensitive), followed by ";", blanks or nothing. */
export function isStsRecord(text: string): boolean {
  return /^v=STSv1(?:[ \t;]|$)/.test(text);
}

/** Meant as an MTA-STS record but ignored by senders (wrong case, blanks, a typo in the version). */
export function looksLikeStsRecord(text: string): boolean {
  return !isStsRecord(text) && /^\s*v\s*=\s*sts/i.test(text);
}

function recordFault(message: string): Finding {
  return {
    code: 'MTA_STS_RECORD_INVALID',
    severity: 'error',
    message,
    rfc: RFC,
    recommendation: `Publish the record exactly as "v=STSv1; id=${EXAMPLE_ID}" (fields separated by ";").`,
  };
}

function idFault(message: string): Finding {
  return {
    code: 'MTA_STS_ID_INVALID',
    severity: 'error',
    message,
    rfc: RFC,
    recommendation: `Set id= to 1 to 32 letters and digits, e.g. a timestamp such as "id=${EXAMPLE_ID}", and change it whenever the policy changes.`,
  };
}

export function parseStsRecord(text: string): StsRecord {
  const findings: Finding[] = [];
  const extensions: StsRecord['extensions'] = [];
  let id: string | null = null;
  let idSeen = false;
  if (isRecordTooLarge(text)) return { id: null, extensions, findings: [recordTooLargeFinding('MTA_STS_RECORD_TOO_LARGE', 'MTA-STS record', text.length, RFC)] };
  // After "v=STSv1": ";"-separated fields; one trailing ";" (and trailing blanks) are allowed.
  const rest = trimBlanksStart(trimBlanksEnd(text.slice('v=STSv1'.length)));
  if (rest !== '' && !rest.startsWith(';')) {
    findings.push(recordFault(`The record "${text}" has no ";" after "v=STSv1", so senders cannot read it.`));
    return { id: null, extensions, findings };
  }
  const segments = rest.slice(1).replace(/;$/, '').split(';');
  let invalidFields = 0;
  for (const raw of segments) {
    const segment = raw.trim();
    if (segment === '' && segments.length === 1) break;
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    const value = eq < 0 ? '' : segment.slice(eq + 1);
    if (eq < 0 || !FIELD_NAME.test(name) || (name !== 'id' && !FIELD_VALUE.test(value))) {
      // Past the cap limitFindings drops them: not building them keeps 8 KB of ";" cheap.
      if (++invalidFields > MAX_FINDINGS_PER_CODE) continue;
      const where = segment === '' ? 'an empty field (two ";" in a row)' : `"${segment}"`;
      findings.push(recordFault(`The record is not a valid list of fields at ${where}: each field must be "name=value", separated by ";".`));
      continue;
    }
    if (name !== 'id') {
      extensions.push({ name, value });
      continue;
    }
    if (idSeen) {
      findings.push({
        code: 'MTA_STS_DUPLICATE_FIELD',
        severity: 'warning',
        message: `The record has more than one id= field; senders may read "${id ?? value}" or reject the record.`,
        rfc: RFC,
        recommendation: 'Keep a single id= field.',
        field: 'id',
      });
      continue;
    }
    idSeen = true;
    if (ID.test(value)) id = value;
    else findings.push(idFault(`The record's id is "${value}"; it must be 1 to 32 letters and digits, so senders ignore the record.`));
  }
  if (!idSeen) findings.push(idFault('The record has no id= field, which senders require to know when the policy changes; they ignore the record.'));
  return { id, extensions, findings: limitFindings(findings) };
}
