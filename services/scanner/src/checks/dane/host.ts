import { isOutsideDomain } from '../../dns/shared-cache.js';
import { DnsServerError, DnsTimeoutError, type Resolver, type TlsaAnswer } from '../../dns/types.js';
import type { DnssecValidator } from '../shared/dnssec/validator.js';
import { emptyHost, type SmtpHostResult } from '../shared/mx-probe/host-result.js';
import type { ProbeSettings } from '../shared/mx-probe/probe.js';
import { dialMxHost } from '../shared/mx-probe/dial.js';
import type { ScanConfig } from '../types.js';
import { validateTlsa, type TlsaDnssec } from './tlsa-dnssec.js';
import { ChainCertificate } from './tlsa.js';

/** One MX host as the DANE check sees it: its TLSA records and, when it has some, the probe of its first vetted address. */
export interface DaneHost {
  exchange: string;
  preference: number;
  /** The TLSA owner name, `_25._tcp.{exchange}` (RFC 7672 §2.2.3). */
  tlsaName: string;
  records: TlsaAnswer[];
  /** The TLSA lookup failed: timeout, or the rcode. */
  lookupError: string | null;
  /** The SMTP probe (only hosts with TLSA records are probed); null when not probed. */
  probe: SmtpHostResult | null;
  /** The chain the host presented after STARTTLS, leaf first; [] without a TLS session. */
  chain: ChainCertificate[];
  /** Whether the TLSA records validate with DNSSEC; null when the host has none (or their lookup failed). */
  dnssec: TlsaDnssec | null;
}

/**
 * The TLSA lookup of one MX host, then, when it has records, their DNSSEC validation (in the host's
 * own zone) alongside the STARTTLS probe of its first vetted address, IPv4 first.
 */
export async function examineHost(
  resolver: Resolver,
  validator: DnssecValidator,
  domain: string,
  exchange: string,
  preference: number,
  config: ScanConfig,
  settings: ProbeSettings,
): Promise<DaneHost> {
  const tlsaName = `_25._tcp.${exchange}`;
  const host: DaneHost = { exchange, preference, tlsaName, records: [], lookupError: null, probe: null, chain: [], dnssec: null };
  try {
    // Another organisation's mail host has the same records for every scan.
    host.records = await resolver.lookup(tlsaName, 'TLSA', { shared: isOutsideDomain(exchange, domain) });
  } catch (error) {
    if (error instanceof DnsTimeoutError) host.lookupError = 'timed out';
    else if (error instanceof DnsServerError) host.lookupError = `failed with ${error.rcode}`;
    // A name too long to carry the prefix (RangeError) can own no TLSA record.
    else if (!(error instanceof RangeError)) throw error;
  }
  if (host.records.length === 0) return host;
  const [dnssec] = await Promise.all([validateTlsa(validator, tlsaName), probeTlsaHost(host, resolver, domain, config, settings)]);
  host.dnssec = dnssec;
  return host;
}

/** The STARTTLS probe of a host with TLSA records, reached as the SMTP check reaches it (checks/shared/mx-probe/dial.ts). */
async function probeTlsaHost(host: DaneHost, resolver: Resolver, domain: string, config: ScanConfig, settings: ProbeSettings): Promise<void> {
  const probe = emptyHost(host.exchange, host.preference, config.smtpPort);
  host.probe = probe;
  host.chain = (await dialMxHost(probe, resolver, domain, config, settings)).map((der) => new ChainCertificate(der));
}
