import type { SslDetails } from '@sendwell/contracts';
import type { Check, CheckResult } from '../types.js';
import { secureContextFor } from './handshake.js';
import { checkHost } from './host.js';
import { sslVerdict } from './verdict.js';

/**
 * SSL certificate check: a TLS handshake with SNI (RFC 6066 §3) to the domain and to www.{domain},
 * validating the chain (RFC 5280 §6), the validity dates (RFC 5280 §4.1.2.5), the host name
 * (RFC 6125 §6) and the protocol version (RFC 8996).
 */
export const sslCertificateCheck: Check<'ssl_certificate'> = async ({ domain, resolver, config }): Promise<CheckResult<SslDetails>> => {
  const now = Date.now();
  const context = secureContextFor(config.tlsExtraCa);
  const hostConfig = { port: config.tlsPort, timeoutMs: config.timeoutMs, outbound: config.outbound };
  const [apex, www] = await Promise.all([
    checkHost(resolver, domain, 'domain', hostConfig, context, now),
    checkHost(resolver, `www.${domain}`, 'www', hostConfig, context, now),
  ]);
  return sslVerdict(domain, apex, www);
};
