import { rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { assertPublicAddress, describeSocketError, guardedLookup, PrivateTargetError, type OutboundPolicy } from './outbound-guard.js';

export interface OutboundHttpOptions {
  policy: OutboundPolicy;
  /** Limit of one request: connecting, sending and the answer's headers and body. */
  timeoutMs: number;
  /** Refuse http:// targets (production): alert payloads and tokens must not cross the network in clear. */
  httpsOnly: boolean;
  /** Extra trusted CA certificates (PEM), besides Node's bundled roots. */
  extraCa?: string;
}

export interface OutboundAnswer {
  status: number;
  /** At most the first 64 KB of the answer (a lookup before an upsert reads it; a log keeps its status). */
  body: string;
}

/** Why an outbound request could not be made or was refused; `permanent` failures are not retried. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const ANSWER_LIMIT = 64 * 1024;
const USER_AGENT = 'Sendwell-Notify/1.0';

/**
 * HTTP requests to addresses taken from user data (webhooks, chat and on-call integrations) or from
 * another party's answers (Stripe's invoice PDF links): every connection goes through the outbound
 * guard after DNS resolution (the lookup hands the socket only vetted addresses, so a name that
 * resolves to 10.0.0.5 is refused at connect time, every time), no redirect is followed, and answers
 * are read only up to 64 KB (a `download` up to the size it is given).
 */
export class OutboundHttp {
  private readonly agent: Agent;

  constructor(private readonly options: OutboundHttpOptions) {
    this.agent = new Agent({
      connect: {
        lookup: guardedLookup(options.policy),
        timeout: options.timeoutMs,
        ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: 64,
    });
  }

  /** The URL parsed and judged before any connection: scheme, credentials, a literal address. */
  check(rawUrl: string): URL {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new OutboundError('the URL is not valid', true);
    }
    if (url.protocol !== 'https:' && (url.protocol !== 'http:' || this.options.httpsOnly)) throw new OutboundError('only https:// addresses are allowed', true);
    if (url.username || url.password) throw new OutboundError('the URL must not carry credentials', true);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node skips the lookup for a literal address, so the guard judges it here.
    if (isIP(host) !== 0) {
      try {
        assertPublicAddress(host, this.options.policy);
      } catch (error) {
        throw new OutboundError(`the address is not public (${(error as PrivateTargetError).reason})`, true);
      }
    }
    return url;
  }

  post(rawUrl: string, body: string, headers: Record<string, string>): Promise<OutboundAnswer> {
    return this.send('POST', rawUrl, body, { 'content-type': 'application/json', ...headers });
  }

  put(rawUrl: string, body: string, headers: Record<string, string>): Promise<OutboundAnswer> {
    return this.send('PUT', rawUrl, body, { 'content-type': 'application/json', ...headers });
  }

  /** A GET with headers (an API key check, a lookup before an upsert). */
  get(rawUrl: string, headers: Record<string, string>): Promise<OutboundAnswer> {
    return this.send('GET', rawUrl, undefined, headers);
  }

  /**
   * A file fetched whole (an invoice's PDF): refused with an OutboundError past `maxBytes` (by its
   * declared length before any byte is read, else once the body passes it) and for any status but
   * 2xx, a redirect included: the guard vetted this URL's host, not the one a Location names.
   */
  async download(rawUrl: string, maxBytes: number): Promise<{ contentType: string | null; body: Buffer }> {
    const url = this.check(rawUrl);
    try {
      const answer = await request(url, { method: 'GET', headers: { 'user-agent': USER_AGENT }, dispatcher: this.agent, signal: AbortSignal.timeout(this.options.timeoutMs) });
      // dump() reads a little and closes, with its own error listener (a bare destroy() would emit an unhandled abort).
      if (answer.statusCode < 200 || answer.statusCode > 299) {
        await answer.body.dump();
        const redirect = answer.statusCode >= 300 && answer.statusCode < 400 ? ' (redirects are not followed)' : '';
        throw new OutboundError(`the server answered ${answer.statusCode}${redirect}`, answer.statusCode < 500);
      }
      if (Number(answer.headers['content-length']) > maxBytes) {
        await answer.body.dump();
        throw new OutboundError(`the file is larger than ${maxBytes} bytes`, true);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          answer.body.destroy();
          throw new OutboundError(`the file is larger than ${maxBytes} bytes`, true);
        }
        chunks.push(chunk);
      }
      const contentType = answer.headers['content-type'];
      return { contentType: typeof contentType === 'string' ? contentType : null, body: Buffer.concat(chunks) };
    } catch (error) {
      throw toOutboundError(error);
    }
  }

  private async send(method: 'GET' | 'POST' | 'PUT', rawUrl: string, body: string | undefined, headers: Record<string, string>): Promise<OutboundAnswer> {
    const url = this.check(rawUrl);
    try {
      const answer = await request(url, {
        method,
        body,
        headers: { 'user-agent': USER_AGENT, ...headers },
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: answer.statusCode, body: await readLimited(answer.body) };
    } catch (error) {
      throw toOutboundError(error);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ANSWER_LIMIT) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_LIMIT).toString('utf8');
}

/** A failure in words safe to show the user: never an address or port of our own network. */
function toOutboundError(error: unknown): OutboundError {
  if (error instanceof OutboundError) return error;
  if (error instanceof PrivateTargetError) return new OutboundError(`the address is not public (${error.reason})`, true);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof PrivateTargetError) return new OutboundError(`the address is not public (${cause.reason})`, true);
  const err = error as NodeJS.ErrnoException & { name?: string };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT' || err.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new OutboundError('the server did not answer in time', false);
  }
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return new OutboundError('the host name does not resolve', false);
  if (typeof err.code === 'string' && err.code.startsWith('ERR_TLS') || /certificate|SSL/i.test(err.message ?? '')) {
    return new OutboundError(`TLS failed: ${(err.message ?? '').split('\n')[0]}`, false);
  }
  if (typeof err.code === 'string') return new OutboundError(describeSocketError(err), false);
  return new OutboundError('the request failed', false);
}
