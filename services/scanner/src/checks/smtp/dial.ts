import { isIP } from 'node:net';
import { isOutsideDomain } from '../../dns/shared-cache.js';
import type { Resolver } from '../../dns/types.js';
import { lookupAddresses, refusedName, vetAddresses } from '../outbound-targets.js';
import type { ScanConfig } from '../types.js';
import type { SmtpHostResult } from './host-result.js';
import type { ProbeSettings } from './probe.js';
import { probeMxHost } from './probe-cache.js';

/**
 * How the SMTP and DANE checks reach an MX host: the outbound guard on its name, its addresses
 * (shared between scans when the host is another organisation's), the guard on each address, then
 * the conversation with the first vetted one, IPv4 first. The vetted IP itself is dialled (the name
 * is only the SNI), so DNS cannot answer differently in between. Fills `result` in (refused targets,
 * a lookup error, no address, or the probe's findings) and resolves with the TLS session's chain when
 * `settings.chain` asks for it.
 */
export async function dialMxHost(result: SmtpHostResult, resolver: Resolver, domain: string, config: ScanConfig, settings: ProbeSettings): Promise<Buffer[]> {
  const { exchange } = result;
  const badName = refusedName(exchange);
  if (badName) {
    result.refused = [badName];
    return [];
  }
  const { addresses, error } = await lookupAddresses(resolver, exchange, { shared: isOutsideDomain(exchange, domain) });
  if (addresses.length === 0) {
    if (error !== null) result.dnsError = error;
    else result.noAddress = true;
    return [];
  }
  const { allowed, refused } = vetAddresses(addresses, config.outbound);
  result.refused = refused;
  const address = allowed.find((ip) => isIP(ip) === 4) ?? allowed[0];
  return address === undefined ? [] : probeMxHost(result, address, settings, domain, config.mxProbes);
}
