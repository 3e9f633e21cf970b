import { isIP } from 'node:net';
import type { DnsblZone } from './zones.js';

/**
 * Pure DNSBL helpers (RFC 5782): the query name of an address and what a list's answer means.
 */

/** Eight 16-bit groups of an IPv6 address as 32 hex nibbles, or null when it is not IPv6. */
export function ipv6Nibbles(address: string): string | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const octets = tail.split('.').map(Number);
    const high = (((octets[0] ?? 0) << 8) | (octets[1] ?? 0)).toString(16);
    const low = (((octets[2] ?? 0) << 8) | (octets[3] ?? 0)).toString(16);
    text = `${text.slice(0, lastColon + 1)}${high}:${low}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = rest === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...restGroups];
  if (groups.length !== 8) return null;
  return groups.map((group) => group.padStart(4, '0')).join('');
}

/**
 * The name to query for `address` in `zone`: reversed octets for IPv4 (RFC 5782 §2.1), the 32
 * reversed hex nibbles for IPv6 (RFC 5782 §2.4).
 */
export function dnsblQueryName(address: string, zone: string): string | null {
  const reversed = dnsblReversedAddress(address);
  return reversed === null ? null : `${reversed}${zone}`;
}

/** The reversed form of `address` with its trailing dot, computed once per address and put before each zone. */
export function dnsblReversedAddress(address: string): string | null {
  const version = isIP(address);
  if (version === 4) {
    const octets = address.split('.');
    return `${octets[3]}.${octets[2]}.${octets[1]}.${octets[0]}.`;
  }
  if (version === 6) {
    const nibbles = ipv6Nibbles(address);
    if (nibbles === null) return null;
    let reversed = '';
    for (let i = nibbles.length - 1; i >= 0; i--) reversed += `${nibbles[i]}.`;
    return reversed;
  }
  return null;
}

export type DnsblVerdict =
  | { status: 'listed'; codes: string[] }
  | { status: 'clean'; codes: string[] }
  /** The list refused to answer (a refusal code) or answered outside 127.0.0.0/8. */
  | { status: 'refused'; codes: string[]; reason: 'refused' | 'unexpected' };

/**
 * 127.0.0.1 is never a listing unless the list says so: RFC 5782 §5 keeps it out of every list (so
 * that a resolver answering "localhost" for everything cannot list the world), and lists use it as an
 * answer for "blocked" (SURBL, URIBL) or "whitelisted" (HostKarma).
 */
const LOOPBACK = '127.0.0.1';

function inLoopbackBlock(address: string): boolean {
  return address.startsWith('127.') && isIP(address) === 4;
}

/** Where lists put their error answers (Spamhaus: 127.255.255.252/254/255); never a listing unless a list says so. */
function inErrorBlock(address: string): boolean {
  return address.startsWith('127.255.255.');
}

/**
 * What the A records a list returned mean (RFC 5782 §2.1, §2.3). With `listedCodes`, only those
 * values list; without, any answer in 127.0.0.0/8 lists except 127.0.0.1, the error block
 * 127.255.255.0/24 and the list's refusal codes. An answer that does not list is a refusal when it
 * is one of those or when the list reads other answers as refusals (`otherAnswers`), else clean. Any
 * answer outside 127.0.0.0/8 is not a DNSBL answer at all (a lapsed list's domain that now resolves
 * everything, a hijacking resolver), so it cannot be trusted either way.
 */
export function classifyDnsblAnswer(zone: DnsblZone, answers: readonly string[]): DnsblVerdict {
  if (answers.length === 0) return { status: 'clean', codes: [] };
  const codes = [...answers];
  if (codes.some((code) => !inLoopbackBlock(code))) return { status: 'refused', codes, reason: 'unexpected' };
  const listing = codes.filter((code) =>
    zone.listedCodes ? zone.listedCodes.includes(code) : code !== LOOPBACK && !inErrorBlock(code) && !zone.refusedCodes.includes(code),
  );
  if (listing.length > 0) return { status: 'listed', codes: listing };
  const refusal = (code: string) =>
    zone.refusedCodes.includes(code) || zone.otherAnswers === 'refused' || (!zone.listedCodes && (code === LOOPBACK || inErrorBlock(code)));
  if (codes.some(refusal)) return { status: 'refused', codes, reason: 'refused' };
  return { status: 'clean', codes };
}

/** Runs `task` over `items` with at most `limit` in flight, keeping results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  const workers: Array<Promise<void>> = [];
  for (let i = 0; i < Math.min(limit, items.length); i++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
