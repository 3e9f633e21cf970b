import ipaddr from 'ipaddr.js';

/** RFC 1035 §2.3.4: 253 characters as text without the trailing dot, 63 per label. */
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

function isLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL_LENGTH) return false;
  if (label.startsWith('-') || label.endsWith('-')) return false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    // a-z 0-9 - and _ (underscores appear in SPF names such as _spf.google.com and in some PTRs).
    const ok = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95;
    if (!ok) return false;
  }
  return true;
}

/**
 * A host name from DNS as we store and compare it: lower case, no trailing dot; null when it is not a
 * plausible name (empty, too long, a single label, odd characters), as a hostile answer may be.
 */
export function normaliseHostName(name: string): string | null {
  if (name.length > MAX_NAME_LENGTH + 1) return null;
  let host = name.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.length === 0 || host.length > MAX_NAME_LENGTH) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every(isLabel)) return null;
  return host;
}

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An address as Postgres' inet gives it ('192.0.2.1', '2001:db8::1', possibly with a /length);
 * IPv4-mapped IPv6 becomes the IPv4 address it carries, which is what sent the mail. Null when unparsable.
 */
export function parseAddress(value: string): IpAddress | null {
  const slash = value.indexOf('/');
  const text = slash >= 0 ? value.slice(0, slash) : value;
  if (!ipaddr.isValid(text)) return null;
  if (!text.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
  return ipaddr.process(text);
}

/** Equality of two addresses of any family (IPv4-mapped IPv6 counts as its IPv4 address). */
export function sameAddress(x: IpAddress, y: IpAddress): boolean {
  return x.kind() === y.kind() && x.toNormalizedString() === y.toNormalizedString();
}
