import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one outbound guard: every connection to an address or host taken from user data (a domain's
 * A/AAAA, MX and NS records, a webhook URL, an integration) is vetted here first, so a domain pointed
 * at 127.0.0.1, 10.0.0.5 or fd00::1 cannot make our services probe our own network and report back.
 *
 * Addresses are judged by the IANA special-purpose address registries (IPv4 and IPv6) through
 * ipaddr.js, whose `range()` names those blocks and is kept in step with the registries, rather than
 * a table of our own. Only what the registries call globally reachable passes; IPv6 must also be in
 * 2000::/3, the only block IANA allocates as global unicast. IPv4-mapped (::ffff:0:0/96), NAT64
 * (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16) addresses reach the IPv4 address they embed, so that
 * address is judged instead.
 *
 * Using it:
 * - an address already resolved (from our own DNS resolver): `addressRefusal(ip, policy)` for a
 *   reason to report, or `assertPublicAddress(ip, policy)` to throw; then connect to that very IP,
 *   never to the name again (a second resolution could answer differently: DNS rebinding);
 * - a host name or literal to connect to: `resolvePublicAddresses(host, policy)` resolves it once
 *   and returns only the addresses that pass;
 * - `net.connect`, `tls.connect` or undici (`new Agent({ connect: { lookup } })`):
 *   `guardedLookup(policy)` is a `lookup` that resolves and vets in one step, so the socket connects
 *   to the vetted address. Node skips `lookup` for an IP literal host, so check a literal with
 *   `assertPublicAddress` first (`resolvePublicAddresses` handles both).
 */

export interface OutboundPolicy {
  /** ALLOW_LOOPBACK_TARGETS: tests reach their fixture servers on 127.0.0.0/8 and ::1, and nothing else. */
  allowLoopback: boolean;
}

/** A target the guard refused; `reason` names the kind of address or name ("loopback", "private network"). */
export class PrivateTargetError extends Error {
  override name = 'PrivateTargetError';
  constructor(
    readonly target: string,
    readonly reason: string,
  ) {
    super(`${target} is not a public address (${reason})`);
  }
}

/** ipaddr.js range names that the IANA registries mark globally reachable. */
const GLOBAL_RANGES = new Set(['unicast', 'as112', 'amt', 'as112v6', 'orchid2', 'droneRemoteIdProtocolEntityTags']);

/** Single globally reachable addresses inside blocks that are not (IANA: PCP, TURN and DNS-SD SRP anycast). */
const GLOBAL_EXCEPTIONS = new Set(['192.0.0.9', '192.0.0.10', '2001:1::1', '2001:1::2', '2001:1::3']);

/** ipaddr.js range names in words for a finding. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private network',
  reserved: 'reserved or documentation range',
  uniqueLocal: 'unique local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64 local-use',
  teredo: 'Teredo',
  benchmarking: 'benchmarking',
  deprecatedOrchid: 'ORCHID',
  segmentRouting: 'segment routing',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

function embeddedV4(parts: number[], high: number, low: number): ipaddr.IPv4 {
  const a = parts[high]!;
  const b = parts[low]!;
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
}

function judgeV4(address: ipaddr.IPv4): string | null {
  if (GLOBAL_EXCEPTIONS.has(address.toString())) return null;
  const range = address.range();
  return GLOBAL_RANGES.has(range) ? null : (RANGE_WORDS[range] ?? range);
}

function judgeV6(address: ipaddr.IPv6): string | null {
  const range = address.range();
  const via = (v4: ipaddr.IPv4, how: string): string | null => {
    const reason = judgeV4(v4);
    return reason === null ? null : `${reason}, in ${how}`;
  };
  if (range === 'ipv4Mapped') return via(address.toIPv4Address(), 'an IPv4-mapped address');
  if (range === '6to4') return via(embeddedV4(address.parts, 1, 2), 'a 6to4 address');
  if (range === 'rfc6052' && address.match(NAT64_WELL_KNOWN)) return via(embeddedV4(address.parts, 6, 7), 'a NAT64 address');
  if (GLOBAL_EXCEPTIONS.has(address.toString())) return null;
  if (!GLOBAL_RANGES.has(range)) return RANGE_WORDS[range] ?? range;
  return address.match(GLOBAL_UNICAST_V6) ? null : 'reserved (outside global unicast 2000::/3)';
}

function isPlainLoopback(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === 'ipv4' ? address.range() === 'loopback' : address.toNormalizedString() === '0:0:0:0:0:0:0:1';
}

/**
 * Why `ip` must not be connected to, in words ("loopback", "private network"), or null when it is a
 * public address. Anything that is not an IP address in the usual notation is refused too.
 */
export function addressRefusal(ip: string, policy: OutboundPolicy): string | null {
  // Node's notation only: ipaddr.js would also read "0x7f.1" or "2130706433", which no resolver returns.
  if (isIP(ip) === 0) return 'not an IP address';
  const address = ipaddr.parse(ip);
  if (policy.allowLoopback && isPlainLoopback(address)) return null;
  return address.kind() === 'ipv4' ? judgeV4(address as ipaddr.IPv4) : judgeV6(address as ipaddr.IPv6);
}

export function assertPublicAddress(ip: string, policy: OutboundPolicy): void {
  const reason = addressRefusal(ip, policy);
  if (reason !== null) throw new PrivateTargetError(ip, reason);
}

/**
 * Special-use names (RFC 6761 and successors) that never name a public host, refused before any
 * lookup: localhost (RFC 6761 §6.3), .invalid (§6.4), .local (mDNS, RFC 6762), .home.arpa (RFC 8375),
 * .onion (RFC 7686), .alt (RFC 9476) and .internal (ICANN's private-use TLD). RFC 6761 asks
 * applications not to treat .test and .example specially, so they resolve like any name (test
 * fixtures use them). Single-label names are refused too: the system resolver would complete them
 * with its search list into a name of our own network.
 */
const SPECIAL_USE_SUFFIXES = ['localhost', 'invalid', 'local', 'home.arpa', 'onion', 'alt', 'internal'];

/** Why a host name must not be resolved and connected to, or null for an ordinary name (or an IP literal). */
export function nameRefusal(host: string): string | null {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  if (isIP(name) !== 0) return null;
  const suffix = SPECIAL_USE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) return `special-use name .${suffix}`;
  if (!name.includes('.')) return 'single-label name';
  return null;
}

export type ResolveAll = (host: string) => Promise<string[]>;

/** The system resolver (getaddrinfo), every address of both families. */
const systemResolve: ResolveAll = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The public addresses of a host name or IP literal, resolved once; connect to one of these, not to
 * the name. Throws PrivateTargetError for a special-use name or when no address passes (the reason is
 * the first refused address's).
 */
export async function resolvePublicAddresses(host: string, policy: OutboundPolicy, resolve: ResolveAll = systemResolve): Promise<string[]> {
  const nameReason = nameRefusal(host);
  if (nameReason !== null) throw new PrivateTargetError(host, nameReason);
  const addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  const allowed = addresses.filter((ip) => addressRefusal(ip, policy) === null);
  if (allowed.length === 0) {
    const refused = addresses[0];
    throw new PrivateTargetError(host, refused === undefined ? 'no address' : (addressRefusal(refused, policy) as string));
  }
  return allowed;
}

/**
 * A `lookup` for net/tls.connect and undici's `connect` option: resolves with the system resolver,
 * drops refused addresses and fails the connection with PrivateTargetError when none is left.
 */
export function guardedLookup(policy: OutboundPolicy, resolve: ResolveAll = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublicAddresses(hostname, policy, resolve).then(
      (addresses) => {
        const wanted = addresses.filter((ip) => !options.family || isIP(ip) === options.family);
        const entries: LookupAddress[] = wanted.map((address) => ({ address, family: isIP(address) }));
        if (entries.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no public IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          callback(null, entries);
        } else {
          callback(null, entries[0]!.address, entries[0]!.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

const SYSTEM_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to the host',
  EPIPE: 'connection closed',
};

/**
 * A socket error in words for a result a user sees. A system error's text names addresses and ports
 * of our own network ("connect ECONNREFUSED 10.0.0.5:443"), so only its code is kept; a TLS
 * error (ERR_SSL_…, ERR_TLS_…) keeps its first line, which says what the server did wrong.
 */
export function describeSocketError(error: NodeJS.ErrnoException): string {
  const code = error.code;
  if (code === undefined) return 'connection failed';
  if (/^E[A-Z0-9]+$/.test(code)) return SYSTEM_ERRORS[code] ?? `connection failed (${code})`;
  return `${code}: ${error.message.split('\n')[0]}`;
}
