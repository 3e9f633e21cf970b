import { pickMailHostAddress } from '@sendwell/smtp-client';
import { isOutsideDomain } from '../../../dns/shared-cache.js';
import type { Resolver } from '../../../dns/types.js';
import { lookupAddresses } from '../../outbound-targets.js';
import type { ScanConfig } from '../../types.js';
import type { SmtpHostResult } from './host-result.js';
import type { ProbeSettings } from './probe.js';
import { probeMxHost } from './probe-cache.js';

/**
 * How the SMTP and DANE checks reach an MX host: @sendwell/smtp-client's pickMailHostAddress (the
 * outbound guard on its name, its addresses, shared between scans when the host is another
 * organisation's, the guard on each address), then the conversation with the first vetted one, IPv4
 * first. The vetted IP itself is dialled (the name is only the SNI), so DNS cannot answer differently
 * in between. Fills `result` in (refused targets, a lookup error, no address, or the probe's
 * findings) and resolves with the TLS session's chain when `settings.chain` asks for it.
 */
export async function dialMxHost(result: SmtpHostResult, resolver: Resolver, domain: string, config: ScanConfig, settings: ProbeSettings): Promise<Buffer[]> {
  const { exchange } = result;
  const picked = await pickMailHostAddress(exchange, (host) => lookupAddresses(resolver, host, { shared: isOutsideDomain(host, domain) }), config.outbound);
  switch (picked.kind) {
    case 'refused-name':
      result.refused = [picked.refused];
      return [];
    case 'lookup-failed':
      result.dnsError = picked.error;
      return [];
    case 'no-address':
      result.noAddress = true;
      return [];
    case 'vetted':
      result.refused = picked.refused;
      return picked.address === null ? [] : probeMxHost(result, picked.address, settings, domain, config.mxProbes);
  }
}
