import { DnsServerError, DnsTimeoutError, type MxAnswer, type Resolver } from '../../dns/types.js';

/** MX hosts probed per scan, lowest preference first: a domain with many cannot make the check slow. */
export const MAX_MX_HOSTS = 5;

export interface MxPlan {
  /** Distinct exchanges by preference, at most MAX_MX_HOSTS. */
  hosts: MxAnswer[];
  /** Exchanges beyond the limit, not probed. */
  skipped: number;
  /** The domain publishes a null MX (RFC 7505 §3) and nothing else. */
  nullMx: boolean;
  /** The MX lookup failed (timeout, SERVFAIL …). */
  error: string | null;
}

/** The domain's MX hosts, null MX "." left out. */
export async function planMxHosts(resolver: Resolver, domain: string): Promise<MxPlan> {
  let answers: MxAnswer[];
  try {
    answers = await resolver.lookup(domain, 'MX');
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return { hosts: [], skipped: 0, nullMx: false, error: error.message };
    throw error;
  }
  const seen = new Set<string>();
  const hosts: MxAnswer[] = [];
  for (const answer of [...answers].sort((a, b) => a.priority - b.priority)) {
    const exchange = normaliseName(answer.exchange);
    if (exchange === '' || seen.has(exchange)) continue;
    seen.add(exchange);
    hosts.push({ exchange, priority: answer.priority });
  }
  const nullMx = answers.length > 0 && hosts.length === 0;
  return { hosts: hosts.slice(0, MAX_MX_HOSTS), skipped: Math.max(0, hosts.length - MAX_MX_HOSTS), nullMx, error: null };
}

export function normaliseName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
