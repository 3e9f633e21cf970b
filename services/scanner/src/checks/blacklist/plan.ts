import { isIP } from 'node:net';
import { dnsblReversedAddress } from './dnsbl.js';
import { dnsblZone, type DnsblKind, type DnsblZone, type DnsblZoneSpec } from './zones.js';

/** One question to one list: an address (IP lists) or the domain itself (domain lists). */
export interface DnsblQuery {
  zone: DnsblZone;
  ip: string | null;
  /** The name asked, in the list's query zone: it holds the list's key, if any, so it is never shown. */
  name: string;
}

/** The configured zones, else the built-in ones, each once (by the list's public zone, its id) and with its metadata. */
export function zonesFrom(configured: ReadonlyArray<string | DnsblZoneSpec>, defaults: readonly string[], kind: DnsblKind): DnsblZone[] {
  const names = configured.length > 0 ? configured : defaults;
  const seen = new Set<string>();
  const zones: DnsblZone[] = [];
  for (const name of names) {
    const zone = dnsblZone(name, kind);
    if (zone.zone === '' || seen.has(zone.zone)) continue;
    seen.add(zone.zone);
    zones.push(zone);
  }
  return zones;
}

/** Every address against every IP list (IPv6 only where the list has IPv6 entries), then the domain against every domain list. */
export function planQueries(domain: string, ips: readonly string[], ipZones: readonly DnsblZone[], domainZones: readonly DnsblZone[]): DnsblQuery[] {
  const queries: DnsblQuery[] = [];
  for (const address of ips) {
    const v6 = isIP(address) === 6;
    const reversed = dnsblReversedAddress(address);
    if (reversed === null) continue;
    for (const zone of ipZones) {
      if (v6 && !zone.ipv6) continue;
      queries.push({ zone, ip: address, name: `${reversed}${zone.queryZone}` });
    }
  }
  for (const zone of domainZones) queries.push({ zone, ip: null, name: `${domain}.${zone.queryZone}` });
  return queries;
}
