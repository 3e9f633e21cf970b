import type { OutboundPolicy } from '@sendwell/server-kit';
import type { Resolver } from '../../dns/types.js';
import { fetchHttps, type HttpsFetch, type HttpsResponse, type TlsProblem } from '../https-fetch.js';

/**
 * Fetching the policy as a sender does (RFC 8461 §3.3): GET https://mta-sts.{domain}/.well-known/mta-sts.txt
 * with the shared HTTPS fetch (../https-fetch.ts): the certificate valid for the policy host and
 * chained to a trusted root, redirects not followed, within a timeout and a size limit, the vetted
 * address dialled.
 */

export const POLICY_PATH = '/.well-known/mta-sts.txt';
/** RFC 8461 §3.3 suggests senders read at most 64 KB of policy. */
export const MAX_POLICY_BYTES = 64 * 1024;

export type CertificateProblem = TlsProblem;

export interface PolicyResponse extends Omit<HttpsResponse, 'body'> {
  /** The body of a 200 answer (UTF-8), null otherwise or when it exceeded MAX_POLICY_BYTES. */
  body: string | null;
}

export interface PolicyFetch extends Omit<HttpsFetch, 'tls' | 'response'> {
  /** The certificate failed validation; `detail` is the OpenSSL or Node code. */
  certificate: HttpsFetch['tls'];
  response: PolicyResponse | null;
}

export async function fetchPolicy(
  resolver: Resolver,
  domain: string,
  config: { port: number; timeoutMs: number; outbound: OutboundPolicy; extraCa: string | undefined },
): Promise<PolicyFetch> {
  const { tls, response, ...fetched } = await fetchHttps(resolver, new URL(`https://mta-sts.${domain}${POLICY_PATH}`), {
    defaultPort: config.port,
    timeoutMs: config.timeoutMs,
    outbound: config.outbound,
    extraCa: config.extraCa,
    maxBytes: MAX_POLICY_BYTES,
    accept: 'text/plain',
    userAgent: 'SendwellScanner/1 (MTA-STS policy check)',
  });
  return { ...fetched, certificate: tls, response: response && { ...response, body: response.body === null ? null : response.body.toString('utf8') } };
}
