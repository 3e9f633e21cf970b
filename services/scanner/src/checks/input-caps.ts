import type { Finding } from '@sendwell/contracts';

/**
 * What a scanned domain publishes is hostile input (issue 24): a record or document may be built to
 * make a parser spend seconds. Every parser is linear (eslint-plugin-regexp guards the regular
 * expressions) and reads at most the sizes here, which no legitimate record comes near; a larger
 * one is refused with a `*_RECORD_TOO_LARGE` finding instead of being parsed. Sizes of fetched
 * documents (MTA-STS policy, BIMI logo and certificate) and SMTP replies live beside their readers.
 */

/**
 * One TXT record, its character-strings joined (SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI). RFC 7208
 * §3.4 asks SPF to stay under 450 bytes, a DMARC or TLS-RPT record is a few hundred, and the longest
 * DKIM key record (RSA 16384) is under 3 KB; 8 KB is far past all of them. A whole record set is
 * bounded by its DNS message (64 KB), and records are told apart by a linear prefix test.
 */
export const MAX_TXT_RECORD_CHARS = 8 * 1024;

export function isRecordTooLarge(text: string): boolean {
  return text.length > MAX_TXT_RECORD_CHARS;
}

/** The finding for a record past MAX_TXT_RECORD_CHARS, worded alike for every check. */
export function recordTooLargeFinding(code: `${string}_RECORD_TOO_LARGE`, noun: string, length: number, rfc: string): Finding {
  return {
    code,
    severity: 'error',
    message: `The ${noun} is ${length} characters long, more than the ${MAX_TXT_RECORD_CHARS / 1024} KB any real record needs, so it was not read.`,
    rfc,
    recommendation: `Publish the ${noun} with only its own fields: a valid one is well under ${MAX_TXT_RECORD_CHARS / 1024} KB.`,
  };
}

/** `text` without the spaces and tabs at its end: a scan from the end, where /[ \t]+$/ is quadratic. */
export function trimBlanksEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

/** `text` without the spaces and tabs at its start. */
export function trimBlanksStart(text: string): string {
  let start = 0;
  while (start < text.length && isBlank(text.charCodeAt(start))) start += 1;
  return text.slice(start);
}

/** Space or horizontal tab, RFC 5234's WSP. */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * Findings of one code a record or document reports at most. Past a few, the same mistake repeated
 * (or an attack: 8 KB of ";" is 8,000 empty fields) would fill the scan with thousands of lines.
 */
export const MAX_FINDINGS_PER_CODE = 10;

/** The first MAX_FINDINGS_PER_CODE findings of each code, in their order. */
export function limitFindings(findings: readonly Finding[]): Finding[] {
  const counts = new Map<string, number>();
  return findings.filter((finding) => {
    const count = (counts.get(finding.code) ?? 0) + 1;
    counts.set(finding.code, count);
    return count <= MAX_FINDINGS_PER_CODE;
  });
}
