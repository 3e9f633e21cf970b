import { Resolver } from 'node:dns/promises';

/**
 * The few lookups naming needs, over node:dns (c-ares). A name without records of the type
 * (NXDOMAIN, NODATA) answers []; anything else (timeout, SERVFAIL, refused) throws, so callers can
 * tell "nothing published" from "could not ask". Answers are hostile: each is cut to a few entries.
 */
export interface NamingDns {
  ptr(name: string): Promise<string[]>;
  a(name: string): Promise<string[]>;
  aaaa(name: string): Promise<string[]>;
  /** TXT records, each one's character-strings joined; long ones dropped. */
  txt(name: string): Promise<string[]>;
  /** MX exchanges, most preferred first. */
  mx(name: string): Promise<string[]>;
}

export interface NamingDnsOptions {
  /** `dns.setServers` entries ('127.0.0.1:5353', '[::1]:53'); empty means the system's resolvers. */
  servers: readonly string[];
  /** Per-try timeout; c-ares doubles it on the second try. */
  timeoutMs: number;
  tries?: number;
}

/** Entries of one answer looked at: more is a misconfigured or hostile zone. */
const MAX_ANSWERS = 32;
/** A TXT record longer than this is no SPF record worth reading (RFC 7208 §3.4 suggests 450 bytes). */
const MAX_TXT_LENGTH = 4096;

const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

function isNoRecords(error: unknown): boolean {
  return typeof error === 'object' && error !== null && NO_RECORDS.has(String((error as { code?: unknown }).code));
}

async function orEmpty<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return (await lookup).slice(0, MAX_ANSWERS);
  } catch (error) {
    if (isNoRecords(error)) return [];
    throw error;
  }
}

export function createNamingDns(options: NamingDnsOptions): NamingDns {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries ?? 2 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  return {
    // resolvePtr asks the servers for the name as given; reverse() would read /etc/hosts first.
    ptr: (name) => orEmpty(resolver.resolvePtr(name)),
    a: (name) => orEmpty(resolver.resolve4(name)),
    aaaa: (name) => orEmpty(resolver.resolve6(name)),
    txt: async (name) =>
      (await orEmpty(resolver.resolveTxt(name))).map((parts) => parts.slice(0, 64).join('')).filter((record) => record.length <= MAX_TXT_LENGTH),
    mx: async (name) => (await orEmpty(resolver.resolveMx(name))).sort((x, y) => x.priority - y.priority).map((mx) => mx.exchange),
  };
}

/** The code of a failed lookup (ETIMEOUT, ESERVFAIL...), for the log. */
export function dnsErrorCode(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'UNKNOWN';
}
