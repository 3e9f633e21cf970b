import http from 'node:http';
import tls from 'node:tls';
import { describeSocketError, type OutboundPolicy } from '@sendwell/server-kit';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { refusedName, vetAddresses, type RefusedTarget } from '../outbound-targets.js';
import { handshake, secureContextFor } from '../ssl-certificate/handshake.js';

/**
 * Fetching the policy as a sender does (RFC 8461 §3.3): GET https://mta-sts.{domain}/.well-known/mta-sts.txt
 * over TLS 1.2 or later, the certificate valid for the policy host and chained to a trusted root,
 * redirects not followed, within a timeout and a size limit. The policy host's addresses pass the
 * outbound guard and the vetted IP itself is dialled (the name is only SNI and Host), so DNS cannot
 * answer differently between the check and the connection.
 */

export const POLICY_PATH = '/.well-known/mta-sts.txt';
/** RFC 8461 §3.3 suggests senders read at most 64 KB of policy. */
export const MAX_POLICY_BYTES = 64 * 1024;
/** Addresses tried (A first, then AAAA) before the policy host counts as unreachable. */
const MAX_ADDRESSES = 2;
const USER_AGENT = 'SendwellScanner/1 (MTA-STS policy check)';

export type CertificateProblem = 'untrusted' | 'expired' | 'name';

export interface PolicyResponse {
  status: number;
  /** The Content-Type header as sent, null without one. */
  contentType: string | null;
  /** The Location header of a redirect (never followed). */
  location: string | null;
  /** The body of a 200 answer (UTF-8), null otherwise or when it exceeded MAX_POLICY_BYTES. */
  body: string | null;
  tooLarge: boolean;
}

export interface PolicyFetch {
  host: string;
  url: string;
  port: number;
  /** Addresses (or the name) the outbound guard refused: never connected to. */
  refused: RefusedTarget[];
  /** The policy host has no A or AAAA record. */
  noAddress: boolean;
  /** The A/AAAA lookup failed ("timed out", "failed (SERVFAIL)"), and no address was found. */
  dnsError: string | null;
  /** The address connected to last. */
  address: string | null;
  /** No TLS connection or no HTTP answer (safe words: no socket error text, which would name our addresses). */
  unreachable: string | null;
  /** The certificate failed validation; `detail` is the OpenSSL or Node code. */
  certificate: Array<{ problem: CertificateProblem; detail: string }>;
  response: PolicyResponse | null;
}

const EXPIRY_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

export async function fetchPolicy(resolver: Resolver, domain: string, config: { port: number; timeoutMs: number; outbound: OutboundPolicy; extraCa: string | undefined }): Promise<PolicyFetch> {
  const host = `mta-sts.${domain}`;
  const result: PolicyFetch = {
    host,
    url: `https://${host}${POLICY_PATH}`,
    port: config.port,
    refused: [],
    noAddress: false,
    dnsError: null,
    address: null,
    unreachable: null,
    certificate: [],
    response: null,
  };
  const badName = refusedName(host);
  if (badName) {
    result.refused = [badName];
    return result;
  }
  const resolved = await addressesOf(resolver, host);
  if (resolved.addresses.length === 0) {
    if (resolved.error) result.dnsError = resolved.error;
    else result.noAddress = true;
    return result;
  }
  const { allowed, refused } = vetAddresses(resolved.addresses, config.outbound);
  result.refused = refused;
  const context = secureContextFor(config.extraCa);
  for (const address of allowed.slice(0, MAX_ADDRESSES)) {
    result.address = address;
    const done = await fetchFrom(result, address, config, context);
    if (done) break;
  }
  return result;
}

async function addressesOf(resolver: Resolver, host: string): Promise<{ addresses: string[]; error: string | null }> {
  const addresses: string[] = [];
  let error: string | null = null;
  for (const type of ['A', 'AAAA'] as const) {
    try {
      addresses.push(...(await resolver.lookup(host, type)));
    } catch (caught) {
      if (caught instanceof DnsTimeoutError) error ??= 'timed out';
      else if (caught instanceof DnsServerError) error ??= `failed (${caught.rcode})`;
      else throw caught;
    }
  }
  return { addresses, error };
}

/** One address: handshake, certificate, GET. False only when the address could not be reached (the next one is tried). */
async function fetchFrom(result: PolicyFetch, address: string, config: { port: number; timeoutMs: number }, context: tls.SecureContext | undefined): Promise<boolean> {
  const deadline = Date.now() + config.timeoutMs;
  const attempt = await handshake(address, result.host, config.port, config.timeoutMs, context);
  if (!attempt.socket) {
    result.unreachable = attempt.error ?? 'no TLS connection';
    return false;
  }
  const socket = attempt.socket;
  result.unreachable = null;
  result.certificate = certificateProblems(socket, result.host);
  if (result.certificate.length > 0) {
    // Senders do not fetch from a policy host they cannot authenticate, and neither does the check.
    socket.destroy();
    return true;
  }
  const answer = await get(socket, result, Math.max(deadline - Date.now(), 1));
  if ('error' in answer) {
    result.unreachable = answer.error;
    return true;
  }
  result.response = answer;
  return true;
}

/** The chain verdict (RFC 5280 §6) and the name (RFC 6125 §6), each its own problem. */
function certificateProblems(socket: tls.TLSSocket, host: string): PolicyFetch['certificate'] {
  const problems: PolicyFetch['certificate'] = [];
  const authError = socket.authorizationError as unknown;
  const code = authError === null || authError === undefined ? null : typeof authError === 'string' ? authError : ((authError as NodeJS.ErrnoException).code ?? String(authError));
  if (code !== null && code !== 'ERR_TLS_CERT_ALTNAME_INVALID') {
    problems.push({ problem: EXPIRY_ERRORS.has(code) ? 'expired' : 'untrusted', detail: code });
  }
  const cert = socket.getPeerCertificate(false);
  const nameError = cert && Object.keys(cert).length > 0 ? tls.checkServerIdentity(host, cert) : new Error('no certificate');
  if (nameError) problems.push({ problem: 'name', detail: (nameError as NodeJS.ErrnoException).code ?? 'ERR_TLS_CERT_ALTNAME_INVALID' });
  return problems;
}

/** GET the policy path on the authenticated socket; a 200 body is read up to MAX_POLICY_BYTES. */
function get(socket: tls.TLSSocket, result: PolicyFetch, timeoutMs: number): Promise<PolicyResponse | { error: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: PolicyResponse | { error: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      socket.destroy();
      resolve(value);
    };
    const request = http.request({
      createConnection: () => socket,
      method: 'GET',
      path: POLICY_PATH,
      // Host names the policy host (virtual hosting); the port only when it is not HTTPS's own.
      headers: { host: result.port === 443 ? result.host : `${result.host}:${result.port}`, accept: 'text/plain', 'user-agent': USER_AGENT, connection: 'close' },
    });
    const timer = setTimeout(() => finish({ error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: describeSocketError(error) }));
    request.on('response', (response) => {
      const header = (name: string): string | null => {
        const value = response.headers[name];
        return typeof value === 'string' ? value : null;
      };
      const base = { status: response.statusCode ?? 0, contentType: header('content-type'), location: header('location') };
      if (base.status !== 200) {
        finish({ ...base, body: null, tooLarge: false });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_POLICY_BYTES) finish({ ...base, body: null, tooLarge: true });
        else chunks.push(chunk);
      });
      response.on('end', () => finish({ ...base, body: Buffer.concat(chunks).toString('utf8'), tooLarge: false }));
      response.on('error', (error: NodeJS.ErrnoException) => finish({ error: describeSocketError(error) }));
      response.on('close', () => finish({ error: 'the connection closed before the policy was complete' }));
    });
    request.end();
  });
}
