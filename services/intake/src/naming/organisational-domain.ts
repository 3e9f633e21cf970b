import { getDomain } from 'tldts';
import { normaliseHostName } from './host-name.js';

/**
 * The registrable domain of a host name (mail-sor-f41.google.com → google.com,
 * a.b.example.co.uk → example.co.uk), by the ICANN section of the Public Suffix List: senders are
 * grouped by the organisation that owns the name. Private suffixes are left out so hosts under e.g.
 * amazonaws.com group together rather than one per customer. Null for addresses, bare suffixes and
 * implausible names.
 */
export function organisationalDomain(host: string): string | null {
  const name = normaliseHostName(host);
  if (name === null) return null;
  return getDomain(name, { allowPrivateDomains: false, extractHostname: false, detectIp: true });
}
