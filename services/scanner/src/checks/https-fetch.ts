import http from 'node:http';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { describeSocketError, type OutboundPolicy } from '@sendwell/server-kit';
import { DnsTimeoutError, type Resolver } from '../dns/types.js';
import { lookupAddresses, refusedName, vetAddresses, type RefusedTarget } from './outbound-targets.js';
import { handshake, secureContextFor } from './ssl-certificate/handshake.js';

/**
 * An HTTPS GET as a mail system does it for a policy or a brand document (RFC 8461 §3.3 for the
 * MTA-STS policy, the BIMI draft §7.5 for a logo or mark certificate): HTTPS only, the server's
 * certificate valid for the host and chained to a trusted root (the system's plus the scanner's
 * extra CAs), no redirects followed, the body read up to a limit, everything within one deadline.
 * The host's addresses come from the scan's resolver and pass the outbound guard, and the vetted
 * address itself is dialled with the name only as SNI and Host, so DNS cannot answer differently
 * between the check and the connection.
 */

/** Addresses tried (A first, then AAAA) before the host counts as unreachable. */
const MAX_ADDRESSES = 2;
const EXPIRY_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

export type TlsProblem = 'untrusted' | 'expired' | 'name';

export interface HttpsResponse {
  status: number;
  contentType: string | null;
  /** The Location header of a redirect (never followed). */
  location: string | null;
  /** The body of a 200 answer, null otherwise or when it exceeded the limit. */
  body: Buffer | null;
  /** The body was longer than the limit (reading stopped there). */
  tooLarge: boolean;
  /** The Content-Length the server announced, when it did. */
  announcedLength: number | null;
}

export interface HttpsFetch {
  url: string;
  host: string;
  port: number;
  /** Addresses (or the name) the outbound guard refused: never connected to. */
  refused: RefusedTarget[];
  /** The host has no A or AAAA record. */
  noAddress: boolean;
  /** The A/AAAA lookup failed ("timed out", "failed (SERVFAIL)") and no address was found. */
  dnsError: string | null;
  /** The address connected to last. */
  address: string | null;
  /** No TLS connection or no HTTP answer, in safe words (no socket error text naming our addresses). */
  unreachable: string | null;
  /** The server's certificate failed validation; `detail` is the OpenSSL or Node code. */
  tls: Array<{ problem: TlsProblem; detail: string }>;
  response: HttpsResponse | null;
}

export interface FetchConfig {
  /** Used when the URL names no port (443 in production; tests point it at a fixture). */
  defaultPort: number;
  timeoutMs: number;
  outbound: OutboundPolicy;
  extraCa: string | undefined;
  maxBytes: number;
  accept: string;
  /** Says which check is asking, e.g. "SendwellScanner/1 (BIMI check)". */
  userAgent: string;
}

export async function fetchHttps(resolver: Resolver, url: URL, config: FetchConfig): Promise<HttpsFetch> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port === '' ? config.defaultPort : Number(url.port);
  const result: HttpsFetch = { url: url.href, host, port, refused: [], noAddress: false, dnsError: null, address: null, unreachable: null, tls: [], response: null };
  const deadline = Date.now() + config.timeoutMs;
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    const badName = refusedName(host);
    if (badName) {
      result.refused = [badName];
      return result;
    }
    const resolved = await lookupAddresses(resolver, host);
    if (resolved.addresses.length === 0) {
      const failure = resolved.failures[0]?.error;
      if (failure) result.dnsError = failure instanceof DnsTimeoutError ? 'timed out' : `failed (${failure.rcode})`;
      else result.noAddress = true;
      return result;
    }
    addresses = resolved.addresses;
  }
  const { allowed, refused } = vetAddresses(addresses, config.outbound);
  result.refused = refused;
  const context = secureContextFor(config.extraCa);
  for (const address of allowed.slice(0, MAX_ADDRESSES)) {
    result.address = address;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      result.unreachable = `no answer within ${config.timeoutMs} ms`;
      break;
    }
    if (await fetchFrom(result, url, address, remaining, config, context)) break;
  }
  return result;
}

/** One address: handshake, certificate, GET. False only when the address could not be reached (the next one is tried). */
async function fetchFrom(result: HttpsFetch, url: URL, address: string, timeoutMs: number, config: FetchConfig, context: tls.SecureContext | undefined): Promise<boolean> {
  const started = Date.now();
  const attempt = await handshake(address, result.host, result.port, timeoutMs, context);
  if (!attempt.socket) {
    result.unreachable = attempt.error ?? 'no TLS connection';
    return false;
  }
  const socket = attempt.socket;
  result.unreachable = null;
  result.tls = tlsProblems(socket, result.host);
  if (result.tls.length > 0) {
    // Receivers do not take a logo or certificate from a server they cannot authenticate (§7.5 step 2).
    socket.destroy();
    return true;
  }
  const answer = await get(socket, result, url, Math.max(timeoutMs - (Date.now() - started), 1), config);
  if ('error' in answer) result.unreachable = answer.error;
  else result.response = answer;
  return true;
}

/** The chain verdict (RFC 5280 §6) and the name (RFC 6125 §6), each its own problem. */
function tlsProblems(socket: tls.TLSSocket, host: string): HttpsFetch['tls'] {
  const problems: HttpsFetch['tls'] = [];
  const authError = socket.authorizationError as unknown;
  const code = authError === null || authError === undefined ? null : typeof authError === 'string' ? authError : ((authError as NodeJS.ErrnoException).code ?? String(authError));
  if (code !== null && code !== 'ERR_TLS_CERT_ALTNAME_INVALID') problems.push({ problem: EXPIRY_ERRORS.has(code) ? 'expired' : 'untrusted', detail: code });
  const cert = socket.getPeerCertificate(false);
  const nameError = cert && Object.keys(cert).length > 0 ? tls.checkServerIdentity(host, cert) : new Error('no certificate');
  if (nameError) problems.push({ problem: 'name', detail: (nameError as NodeJS.ErrnoException).code ?? 'ERR_TLS_CERT_ALTNAME_INVALID' });
  return problems;
}

/** GET the URL's path on the authenticated socket; a 200 body is read up to `maxBytes`. */
function get(socket: tls.TLSSocket, result: HttpsFetch, url: URL, timeoutMs: number, config: FetchConfig): Promise<HttpsResponse | { error: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: HttpsResponse | { error: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      socket.destroy();
      resolve(value);
    };
    const hostHeader = isIP(result.host) === 6 ? `[${result.host}]` : result.host;
    const request = http.request({
      createConnection: () => socket,
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: { host: result.port === 443 ? hostHeader : `${hostHeader}:${result.port}`, accept: config.accept, 'user-agent': config.userAgent, connection: 'close' },
    });
    const timer = setTimeout(() => finish({ error: `no answer within ${config.timeoutMs} ms` }), timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: describeSocketError(error) }));
    request.on('response', (response) => {
      const header = (name: string): string | null => {
        const value = response.headers[name];
        return typeof value === 'string' ? value : null;
      };
      const length = Number(header('content-length') ?? Number.NaN);
      const base = { status: response.statusCode ?? 0, contentType: header('content-type'), location: header('location'), announcedLength: Number.isSafeInteger(length) && length >= 0 ? length : null };
      if (base.status !== 200) {
        finish({ ...base, body: null, tooLarge: false });
        return;
      }
      if (base.announcedLength !== null && base.announcedLength > config.maxBytes) {
        finish({ ...base, body: null, tooLarge: true });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > config.maxBytes) finish({ ...base, body: null, tooLarge: true });
        else chunks.push(chunk);
      });
      response.on('end', () => finish({ ...base, body: Buffer.concat(chunks), tooLarge: false }));
      response.on('error', (error: NodeJS.ErrnoException) => finish({ error: describeSocketError(error) }));
      response.on('close', () => finish({ error: 'the connection closed before the document was complete' }));
    });
    request.end();
  });
}
