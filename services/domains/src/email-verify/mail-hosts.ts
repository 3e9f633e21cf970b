import { promises as dns } from 'node:dns';
import { planMxHosts, type AddressLookup } from '@sendwell/smtp-client';

/**
 * Where mail for a domain goes (RFC 5321 §5.1): its MX hosts by preference; with no MX record, the
 * domain itself when it has an A or AAAA record (the implicit MX); a null MX (RFC 7505: a single MX
 * of ".", and no other MX) means the domain accepts no mail at all.
 */
export type MailHosts =
  | { kind: 'mx'; hosts: string[] }
  | { kind: 'implicit'; hosts: string[] }
  | { kind: 'null-mx' }
  | { kind: 'no-mail-host' }
  | { kind: 'nxdomain' }
  /** The lookup itself failed (timeout, SERVFAIL): nothing can be said about the domain. */
  | { kind: 'lookup-failed'; error: string };

export interface DnsLookupOptions {
  /** `host:port` entries as `dns.setServers` takes them; empty means the system's resolvers. */
  servers: string[];
  timeoutMs: number;
  tries?: number;
}

/** A resolver on the configured servers; node's c-ares resolver, no cache of our own (one lookup per call). */
export function createDnsResolver({ servers, timeoutMs, tries = 2 }: DnsLookupOptions): dns.Resolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

const NO_DATA = new Set(['ENODATA']);
const NO_DOMAIN = new Set(['ENOTFOUND']);

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
}

/** Addresses of one host, both families; empty when it has none. Throws when the lookup fails. */
export async function hostAddresses(resolver: dns.Resolver, host: string): Promise<string[]> {
  const settle = async (lookup: Promise<string[]>) => {
    try {
      return await lookup;
    } catch (error) {
      if (NO_DATA.has(code(error)) || NO_DOMAIN.has(code(error))) return [];
      throw error;
    }
  };
  const [v4, v6] = await Promise.all([settle(resolver.resolve4(host)), settle(resolver.resolve6(host))]);
  return [...v4, ...v6];
}

/** hostAddresses as @sendwell/smtp-client's pickMailHostAddress asks for them: a failed lookup in words, never thrown. */
export function addressLookup(resolver: dns.Resolver, onError: (host: string, error: unknown) => void): AddressLookup {
  return async (host) => {
    try {
      return { addresses: await hostAddresses(resolver, host), error: null };
    } catch (error) {
      onError(host, error);
      return { addresses: [], error: `lookup of ${host} failed` };
    }
  };
}

export async function findMailHosts(resolver: dns.Resolver, domain: string): Promise<MailHosts> {
  let records: Array<{ exchange: string; priority: number }>;
  try {
    records = await resolver.resolveMx(domain);
  } catch (error) {
    if (NO_DOMAIN.has(code(error))) return { kind: 'nxdomain' };
    if (!NO_DATA.has(code(error))) return { kind: 'lookup-failed', error: code(error) };
    records = [];
  }

  // RFC 7505 §3: a null MX names no host (c-ares reports the root as ""); @sendwell/smtp-client plans the rest.
  const plan = planMxHosts(records);
  if (plan.nullMx) return { kind: 'null-mx' };
  const hosts = plan.hosts.map((host) => host.exchange);
  if (hosts.length > 0) return { kind: 'mx', hosts };

  try {
    const addresses = await hostAddresses(resolver, domain);
    return addresses.length > 0 ? { kind: 'implicit', hosts: [domain] } : { kind: 'no-mail-host' };
  } catch (error) {
    return { kind: 'lookup-failed', error: code(error) };
  }
}
