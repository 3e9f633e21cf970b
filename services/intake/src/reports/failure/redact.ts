import { createHash } from 'node:crypto';

/** Characters that end a local part when walking back from its '@'. */
const LOCAL_PART_ENDS = new Set([' ', '\t', '\n', '<', '>', '(', ')', ',', ';', ':', '[', ']', '@', '"']);
/** `smtp.mailfrom=` / `header.i=` before an address in Authentication-Results (RFC 8601 §2.2) is not part of it. */
const PROPERTY_PREFIX = /^[a-z]+\.[a-z-]+=/i;
const MAX_KEPT_CHARS = 1024;

/**
 * Replaces the local part of every address in the text with `***`, keeping the domain. Linear: each
 * walk back from an '@' stops at the previous '@' or a quote at the latest.
 */
export function redactAddresses(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    if (text[at - 1] === '"') {
      // A quoted local part (RFC 5321 §4.1.2): back to its opening quote.
      const open = text.lastIndexOf('"', at - 2);
      start = open >= copied ? open : at - 1;
    } else {
      while (start > copied && !LOCAL_PART_ENDS.has(text[start - 1]!)) start--;
      const prefix = PROPERTY_PREFIX.exec(text.slice(start, at));
      if (prefix) start += prefix[0].length;
    }
    if (start === at) continue; // `@example.com` (a DKIM i= without a user) has nothing to hide
    out += `${text.slice(copied, start)}***`;
    copied = at;
  }
  return out + text.slice(copied);
}

/** A value kept in a report: addresses redacted, bounded in size. */
export function keep(value: string | null): string | null {
  return value === null ? null : redactAddresses(value.slice(0, MAX_KEPT_CHARS));
}

/** The domain of an address or `Name <local@domain>` mailbox, lower-cased; null when there is none. */
export function domainOfAddress(value: string | null): string | null {
  if (!value) return null;
  const open = value.lastIndexOf('<');
  const close = value.indexOf('>', open);
  const address = open !== -1 && close !== -1 ? value.slice(open + 1, close) : value;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase();
  return isDomainName(domain) ? domain : null;
}

export function isDomainName(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (!((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9') || char === '.' || char === '-' || char === '_')) return false;
  }
  return value.includes('.');
}

/** Enough to match a report to a message the user also holds, without keeping the identifier. */
export function hashMessageId(value: string | null): string | null {
  const id = value?.trim();
  return id ? createHash('sha256').update(id).digest('hex') : null;
}
