import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP addresses as SPF compares them: IPv4 as one unsigned 32-bit number, IPv6 as eight 16-bit words.
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are treated as IPv4 (RFC 7208 §5: the connection is IPv4).
 */
export type SpfIp = { version: 4; v4: number; text: string } | { version: 6; words: Uint16Array; text: string };

function parseV4(text: string): number {
  let value = 0;
  let start = 0;
  for (let part = 0; part < 4; part++) {
    let end = text.indexOf('.', start);
    if (end < 0) end = text.length;
    value = value * 256 + Number(text.slice(start, end));
    start = end + 1;
  }
  return value >>> 0;
}

function parseV6(text: string): Uint16Array {
  const words = new Uint16Array(8);
  let body = text;
  let tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.indexOf('.', lastColon) >= 0) {
    const v4 = parseV4(body.slice(lastColon + 1));
    tail = [v4 >>> 16, v4 & 0xffff];
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }
  const gap = body.indexOf('::');
  const head = gap >= 0 ? body.slice(0, gap) : body;
  const rest = gap >= 0 ? body.slice(gap + 2) : '';
  const headParts = head === '' ? [] : head.split(':');
  const restParts = rest === '' ? [] : rest.split(':');
  headParts.forEach((part, index) => (words[index] = parseInt(part, 16)));
  restParts.forEach((part, index) => (words[8 - restParts.length + index] = parseInt(part, 16)));
  if (tail.length === 2) {
    words[6] = tail[0] ?? 0;
    words[7] = tail[1] ?? 0;
  }
  return words;
}

/** Parses an address; null when it is not one. */
export function parseIp(text: string): SpfIp | null {
  if (isIPv4(text)) return { version: 4, v4: parseV4(text), text };
  if (!isIPv6(text)) return null;
  const words = parseV6(text);
  if (words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0 && words[4] === 0 && words[5] === 0xffff) {
    const v4 = (((words[6] ?? 0) << 16) | (words[7] ?? 0)) >>> 0;
    return { version: 4, v4, text: formatV4(v4) };
  }
  return { version: 6, words, text };
}

export function formatV4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`;
}

/** Whether `ip` lies in `network/prefix` (host bits of the network ignored, as RFC 7208 §5.6 allows). */
export function inCidr(ip: SpfIp, network: SpfIp, prefix: number): boolean {
  if (ip.version === 4 && network.version === 4) {
    if (prefix === 0) return true;
    const mask = prefix >= 32 ? 0xffffffff : (0xffffffff << (32 - prefix)) >>> 0;
    return ((ip.v4 & mask) >>> 0) === ((network.v4 & mask) >>> 0);
  }
  if (ip.version === 6 && network.version === 6) {
    let bits = prefix;
    for (let i = 0; i < 8 && bits > 0; i++) {
      const take = bits >= 16 ? 16 : bits;
      const mask = (0xffff << (16 - take)) & 0xffff;
      if (((ip.words[i] ?? 0) & mask) !== ((network.words[i] ?? 0) & mask)) return false;
      bits -= take;
    }
    return true;
  }
  return false;
}

/** The `i` macro (RFC 7208 §7.3): dotted quad, or 32 dot-separated hex nibbles for IPv6. */
export function dottedIp(ip: SpfIp): string {
  if (ip.version === 4) return formatV4(ip.v4);
  const nibbles: string[] = [];
  for (const word of ip.words) {
    const hex = word.toString(16).padStart(4, '0');
    for (const nibble of hex) nibbles.push(nibble);
  }
  return nibbles.join('.');
}

/** The PTR question name of an address (RFC 1035 §3.5, RFC 3596 §2.5). */
export function reverseName(ip: SpfIp): string {
  if (ip.version === 4) {
    const v = ip.v4;
    return `${v & 0xff}.${(v >>> 8) & 0xff}.${(v >>> 16) & 0xff}.${v >>> 24}.in-addr.arpa`;
  }
  return `${dottedIp(ip).split('.').reverse().join('.')}.ip6.arpa`;
}

/** The `c` macro: the address in its conventional text form (RFC 5952 compressed for IPv6). */
export function readableIp(ip: SpfIp): string {
  if (ip.version === 4) return formatV4(ip.v4);
  return new URL(`http://[${ip.text}]/`).hostname.slice(1, -1);
}

export function sameIp(a: SpfIp, b: SpfIp): boolean {
  return inCidr(a, b, a.version === 4 ? 32 : 128);
}
