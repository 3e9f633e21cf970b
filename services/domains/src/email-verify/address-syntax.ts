import { domainToASCII } from 'node:url';

/**
 * Mailbox syntax of RFC 5321 §4.1.2 / RFC 5322 §3.4.1 as a sender can use it: a local part that is a
 * dot-atom or a quoted string, `@`, and a domain of LDH labels. Decisions, each stricter or looser
 * than the full grammar for a reason:
 * - Internationalised addresses are accepted (RFC 6530-6532): UTF-8 in the local part, and a Unicode
 *   domain, which is converted to its A-labels (punycode) for DNS and checked like any other name.
 * - Comments and folding white space (CFWS), obsolete in RFC 5322 §4, are refused: no mail system
 *   hands them out and a form input carrying them is a paste error.
 * - Address literals (`user@[192.0.2.1]`) are refused: a list address must name a domain.
 */

export interface ParsedAddress {
  local: string;
  /** As written, lower-cased. */
  domain: string;
  /** The domain in A-labels, what DNS and SMTP use. */
  asciiDomain: string;
}

export type SyntaxResult = { ok: true; address: ParsedAddress } | { ok: false; problem: string };

/** RFC 5321 §4.5.3.1.1 and §4.5.3.1.2, in octets. */
export const MAX_LOCAL_OCTETS = 64;
export const MAX_DOMAIN_OCTETS = 255;
/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets including the angle brackets. */
export const MAX_ADDRESS_OCTETS = 254;

// atext (RFC 5322 §3.2.3), extended with non-ASCII UTF-8 by RFC 6532 §3.2.
const ATEXT = "\\w!#$%&'*+\\-/=?^`{|}~\\u0080-\\uFFFF";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`, 'u');
// qtext is printable ASCII but `"` and `\`; a quoted-pair is `\` and a printable character or space.
const QUOTED_STRING = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\uffff]|\\[\x20-\x7e])*"$/u;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

const octets = (value: string) => Buffer.byteLength(value, 'utf8');

/** Splits at the `@` that is not inside a quoted local part. */
function splitAddress(email: string): { local: string; domain: string } | null {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return { local: email.slice(0, at), domain: email.slice(at + 1) };
}

function localProblem(local: string): string | null {
  if (octets(local) > MAX_LOCAL_OCTETS) return `The part before the @ is longer than ${MAX_LOCAL_OCTETS} characters`;
  if (local.startsWith('"')) {
    return QUOTED_STRING.test(local) ? null : 'The quoted part before the @ is not closed or contains a character that must be escaped';
  }
  if (local.startsWith('.') || local.endsWith('.')) return 'The part before the @ cannot start or end with a dot';
  if (local.includes('..')) return 'The part before the @ cannot contain two dots in a row';
  if (!DOT_ATOM.test(local)) return 'The part before the @ contains a character that is not allowed (spaces, commas, brackets, quotes and @ must be quoted)';
  return null;
}

function domainProblem(ascii: string): string | null {
  if (octets(ascii) > MAX_DOMAIN_OCTETS) return `The domain is longer than ${MAX_DOMAIN_OCTETS} characters`;
  const labels = ascii.split('.');
  if (labels.length < 2) return 'The domain needs a dot and a top-level domain, like example.com';
  if (labels.some((label) => label.length === 0)) return 'The domain cannot contain empty labels (two dots in a row, or a leading or trailing dot)';
  if (labels.some((label) => label.length > 63)) return 'A part of the domain is longer than 63 characters';
  if (labels.some((label) => !LABEL.test(label))) return 'The domain may contain only letters, digits and hyphens, and no part may start or end with a hyphen';
  if (!TOP_LABEL.test(labels[labels.length - 1] ?? '')) return 'The top-level domain is not valid';
  return null;
}

/** Checks one trimmed address; the reason names the first rule it breaks. */
export function parseAddress(email: string): SyntaxResult {
  if (/\s/u.test(email.replace(/"(?:[^"\\]|\\.)*"/gu, ''))) return { ok: false, problem: 'The address contains spaces' };
  if (!email.includes('@')) return { ok: false, problem: 'The address is missing the @ sign' };
  const parts = splitAddress(email);
  if (!parts) return { ok: false, problem: email.startsWith('@') ? 'The address is missing the part before the @' : 'The address is missing the domain after the @' };
  if (octets(email) > MAX_ADDRESS_OCTETS) return { ok: false, problem: `The address is longer than ${MAX_ADDRESS_OCTETS} characters` };

  const local = localProblem(parts.local);
  if (local) return { ok: false, problem: local };

  if (parts.domain.startsWith('[')) return { ok: false, problem: 'The address uses an IP address instead of a domain' };
  const domain = parts.domain.toLowerCase();
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) {
    return { ok: false, problem: 'The domain cannot contain empty labels (two dots in a row, or a leading or trailing dot)' };
  }
  // domainToASCII applies UTS #46 and answers '' for a name it cannot convert.
  // eslint-disable-next-line no-control-regex
  const asciiDomain = /^[\x00-\x7f]*$/.test(domain) ? domain : domainToASCII(domain);
  if (asciiDomain === '') return { ok: false, problem: 'The domain contains characters that are not allowed' };
  const problem = domainProblem(asciiDomain);
  if (problem) return { ok: false, problem };
  return { ok: true, address: { local: parts.local, domain, asciiDomain } };
}
