import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { isStsRecord, looksLikeStsRecord } from './record.js';

/** The DNS half of MTA-STS: the `_mta-sts` TXT records (RFC 8461 §3.1) and the MX hosts the policy must cover (§4.1). */

export type RecordDiscovery =
  | { outcome: 'failed'; reason: string }
  /** `records` start with "v=STSv1"; `ignored` look like MTA-STS records but senders skip them. */
  | { outcome: 'answered'; records: string[]; ignored: string[] };

export type MxDiscovery = { outcome: 'failed'; reason: string } | { outcome: 'answered'; exchanges: string[]; nullMx: boolean };

function failureReason(error: unknown): string | null {
  if (error instanceof DnsTimeoutError) return 'timed out';
  if (error instanceof DnsServerError) return `failed (${error.rcode})`;
  return null;
}

export async function discoverRecords(resolver: Resolver, domain: string): Promise<RecordDiscovery> {
  try {
    const txt = await resolver.lookup(`_mta-sts.${domain}`, 'TXT');
    return { outcome: 'answered', records: txt.filter(isStsRecord), ignored: txt.filter(looksLikeStsRecord) };
  } catch (error) {
    const reason = failureReason(error);
    if (reason === null) throw error;
    return { outcome: 'failed', reason };
  }
}

/** The domain's MX hosts by preference, lower-case without the trailing dot; a null MX "." (RFC 7505) is no host. */
export async function discoverMx(resolver: Resolver, domain: string): Promise<MxDiscovery> {
  try {
    const answers = await resolver.lookup(domain, 'MX');
    const sorted = [...answers].sort((a, b) => a.priority - b.priority);
    const names = sorted.map((answer) => answer.exchange.toLowerCase().replace(/\.$/, ''));
    const exchanges = [...new Set(names.filter((name) => name !== ''))];
    return { outcome: 'answered', exchanges, nullMx: names.includes('') };
  } catch (error) {
    const reason = failureReason(error);
    if (reason === null) throw error;
    return { outcome: 'failed', reason };
  }
}
