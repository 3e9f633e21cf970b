import type { Answer, DecodedPacket } from 'dns-packet';
import { sharedDnsTransport, type DnsTransport } from './dns-transport.js';
import { dnssecAnswerData, toDnssecResponse } from './dnssec-answers.js';
import { negativeTtlOf, rcodeOf } from './packet-fields.js';
import type { SharedAnswerCache } from './shared-cache.js';
import { sharedTimingTransport } from './timing-transport.js';
import {
  DnsServerError,
  DnsTimeoutError,
  type DnsResponse,
  type DnsServer,
  type DnssecResponse,
  type QueryOptions,
  type Rcode,
  type RecordData,
  type RecordType,
  type Resolver,
} from './types.js';

export interface ResolverOptions {
  /** The recursive servers (DNS_SERVERS), tried in order: the retry goes to the next one. */
  servers: DnsServer[];
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Attempts after the first; default 1. */
  retries?: number;
  /** The per-scan cache (and coalescing of identical in-flight questions); default true. */
  cache?: boolean;
  /** Default: the process-wide shared transport. */
  transport?: DnsTransport;
  /**
   * The cross-scan cache for questions asked with `{ shared: true }` (production passes the
   * process-wide sharedAnswerCache()); without it those questions are cached per scan only.
   */
  sharedCache?: SharedAnswerCache;
  /** For questions asked with `{ timing: true }`; default the process-wide timing transport. */
  timingTransport?: DnsTransport;
}

/** Rcodes after which the next server in the list may know better (as stub resolvers do). */
const RETRY_ELSEWHERE = new Set<Rcode>(['SERVFAIL', 'REFUSED']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const ASCII_NAME = /^[\x21-\x7e]+$/;

/** Lower-case without the trailing dot; rejects names DNS cannot carry (RFC 1035 §2.3.4). */
export function normaliseName(name: string): string {
  let normalised = name.toLowerCase();
  if (normalised.endsWith('.')) normalised = normalised.slice(0, -1);
  // Fast path for the usual ASCII name (one byte per character): label lengths by scanning, no arrays.
  if (ASCII_NAME.test(normalised) && normalised.length <= 253) {
    let start = 0;
    for (;;) {
      let end = normalised.indexOf('.', start);
      if (end < 0) end = normalised.length;
      const length = end - start;
      if (length === 0 || length > 63) break; // the general path throws with the message
      if (end === normalised.length) return normalised;
      start = end + 1;
    }
  }
  const labels = normalised.split('.');
  if (
    normalised.length === 0 ||
    Buffer.byteLength(normalised) > 253 ||
    labels.some((label) => label.length === 0 || Buffer.byteLength(label) > 63)
  ) {
    throw new RangeError(`not a valid DNS name: "${name}"`);
  }
  return normalised;
}

function stripDot(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The character-strings of one TXT record joined without separators (RFC 7208 §3.3). */
function txtValue(data: string | Buffer | Array<string | Buffer>): string {
  const parts = Array.isArray(data) ? data : [data];
  const bytes = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // Not UTF-8: latin1 maps every byte to one character, so nothing is lost or replaced.
    return bytes.toString('latin1');
  }
}

function answerData(answer: Answer): RecordData[RecordType] | undefined {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return answer.data;
    case 'NS':
    case 'CNAME':
    case 'PTR':
      return stripDot(answer.data);
    case 'MX':
      return { exchange: stripDot(answer.data.exchange), priority: answer.data.preference ?? 0 };
    case 'TXT':
      return txtValue(answer.data);
    case 'SOA':
      return {
        mname: stripDot(answer.data.mname),
        rname: stripDot(answer.data.rname),
        serial: answer.data.serial ?? 0,
        refresh: answer.data.refresh ?? 0,
        retry: answer.data.retry ?? 0,
        expire: answer.data.expire ?? 0,
        minimum: answer.data.minimum ?? 0,
      };
    case 'TLSA':
      return {
        usage: answer.data.usage,
        selector: answer.data.selector,
        matchingType: answer.data.matchingType,
        data: answer.data.certificate.toString('hex'),
      };
    case 'DNSKEY':
    case 'DS':
    case 'RRSIG':
      return dnssecAnswerData(answer);
    default:
      return undefined;
  }
}

export function toDnsResponse<T extends RecordType>(
  packet: DecodedPacket,
  type: T,
  timeMs: number,
  truncatedRetriedOverTcp: boolean,
): DnsResponse<T> {
  const answers: Array<RecordData[T]> = [];
  let ttl = Infinity;
  for (const answer of packet.answers ?? []) {
    // CNAMEs of the chain bound the answer's lifetime too.
    if (answer.type === 'CNAME' || answer.type === type) ttl = Math.min(ttl, answer.ttl ?? 0);
    if (answer.type !== type) continue;
    const data = answerData(answer);
    if (data !== undefined) answers.push(data as RecordData[T]);
  }
  return {
    rcode: rcodeOf(packet),
    answers,
    authoritative: packet.flag_aa,
    timeMs,
    truncatedRetriedOverTcp,
    ttl: answers.length > 0 && Number.isFinite(ttl) ? ttl : 0,
    negativeTtl: negativeTtlOf(packet),
  };
}

class DnsResolver implements Resolver {
  private sent = 0;
  private readonly cache = new Map<string, Promise<DnsResponse>>();
  private readonly dnssecCache = new Map<string, Promise<DnssecResponse>>();
  private readonly servers: DnsServer[];
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly caching: boolean;
  private readonly transport: DnsTransport;
  private readonly timingTransport: DnsTransport | undefined;
  private readonly sharedCache: SharedAnswerCache | undefined;
  private readonly serversKey: string;
  private readonly countSend = () => {
    this.sent++;
  };

  constructor(options: ResolverOptions) {
    if (options.servers.length === 0) throw new Error('createResolver needs at least one DNS server');
    this.servers = options.servers;
    this.timeoutMs = options.timeoutMs;
    this.attempts = 1 + Math.max(0, options.retries ?? 1);
    this.caching = options.cache ?? true;
    this.transport = options.transport ?? sharedDnsTransport();
    this.timingTransport = options.timingTransport;
    this.sharedCache = options.sharedCache;
    // Answers are shared only between resolvers asking the same servers.
    this.serversKey = this.servers.map((server) => `${server.host}:${server.port}`).join(',');
  }

  get queriesSent(): number {
    return this.sent;
  }

  query<T extends RecordType>(name: string, type: T, options: QueryOptions = {}): Promise<DnsResponse<T>> {
    let qname: string;
    try {
      qname = normaliseName(name);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const recurse = options.recurse ?? true;
    if (options.server) return this.ask(qname, type, [options.server], recurse, options.timing === true);
    const shared = options.shared === true && recurse && this.sharedCache !== undefined;
    if (!this.caching) return shared ? this.askShared(qname, type) : this.ask(qname, type, this.servers, recurse);

    const key = `${type} ${recurse ? 'rd' : 'nord'} ${qname}`;
    const cached = this.cache.get(key) as Promise<DnsResponse<T>> | undefined;
    // A hit (also a question still in flight) reports 0 ms: it cost this scan nothing.
    if (cached) return cached.then((response) => ({ ...response, timeMs: 0 }));
    // Failures stay cached too: a scan must not wait twice for the same dead question.
    const asked = shared ? this.askShared(qname, type) : this.ask(qname, type, this.servers, recurse);
    this.cache.set(key, asked);
    return asked;
  }

  /** Through the shared cache: a hit (or a question another scan has in flight) sends nothing. */
  private askShared<T extends RecordType>(qname: string, type: T): Promise<DnsResponse<T>> {
    const cache = this.sharedCache as SharedAnswerCache;
    const key = `${this.serversKey} ${type} ${qname}`;
    // Most shared questions are hits (~80 a scan): answered without resolve()'s async machinery.
    const cached = cache.hit(key);
    if (cached) return Promise.resolve({ ...cached, timeMs: 0 } as DnsResponse<T>);
    return cache
      .resolve(key, () => this.ask(qname, type, this.servers, true))
      .then(({ response, fromNetwork }) => (fromNetwork ? response : { ...response, timeMs: 0 }) as DnsResponse<T>);
  }

  // --- DNSSEC: questions with DO and CD set, answered with canonical rdata and the RRSIGs (dnssec-answers.ts).

  queryDnssec(name: string, type: RecordType, options: Pick<QueryOptions, 'shared'> = {}): Promise<DnssecResponse> {
    let qname: string;
    try {
      qname = dnssecQname(name);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const shared = options.shared === true && this.sharedCache !== undefined;
    if (!this.caching) return shared ? this.askDnssecShared(qname, type) : this.askDnssec(qname, type);
    // Its own key space: the same question without DO is another answer.
    const key = `${type} do ${qname}`;
    const cached = this.dnssecCache.get(key);
    if (cached) return cached.then((response) => ({ ...response, timeMs: 0 }));
    const asked = shared ? this.askDnssecShared(qname, type) : this.askDnssec(qname, type);
    this.dnssecCache.set(key, asked);
    return asked;
  }

  /** The root's and the TLDs' keys are the same for every scan: one question per TTL for all of them. */
  private askDnssecShared(qname: string, type: RecordType): Promise<DnssecResponse> {
    const cache = this.sharedCache as SharedAnswerCache;
    const key = `${this.serversKey} ${type} +do ${qname}`;
    // The shared cache reads only rcode, answers, ttl and negativeTtl, which a DnssecResponse has too.
    const fetch = () => this.askDnssec(qname, type) as unknown as Promise<DnsResponse>;
    return cache
      .resolve(key, fetch)
      .then(({ response, fromNetwork }) => (fromNetwork ? response : { ...response, timeMs: 0 }) as unknown as DnssecResponse);
  }

  /** As ask(), with the DNSSEC bits set and the DNSSEC answer shape. */
  private askDnssec(name: string, type: RecordType): Promise<DnssecResponse> {
    return this.attempt(name, type, this.servers, async (server) => {
      const exchange = await this.transport.exchange(server, { name, type, dnssec: true }, { recurse: true, timeoutMs: this.timeoutMs, onSend: this.countSend });
      return toDnssecResponse(exchange.response, exchange.timeMs, exchange.truncatedRetriedOverTcp);
    });
  }

  async lookup<T extends RecordType>(name: string, type: T, options?: Pick<QueryOptions, 'shared'>): Promise<Array<RecordData[T]>> {
    const response = await this.query(name, type, options);
    if (response.rcode === 'NOERROR' || response.rcode === 'NXDOMAIN') return response.answers;
    throw new DnsServerError(normaliseName(name), type, response.rcode);
  }

  private ask<T extends RecordType>(name: string, type: T, servers: DnsServer[], recurse: boolean, timed = false): Promise<DnsResponse<T>> {
    const transport = timed ? (this.timingTransport ?? sharedTimingTransport()) : this.transport;
    return this.attempt(name, type, servers, async (server) => {
      const exchange = await transport.exchange(server, { name, type }, { recurse, timeoutMs: this.timeoutMs, onSend: this.countSend });
      const response = toDnsResponse(exchange.response, type, exchange.timeMs, exchange.truncatedRetriedOverTcp);
      if (timed) response.timing = { sentAt: exchange.sentAt, receivedAt: exchange.receivedAt };
      return response;
    });
  }

  /**
   * Up to `attempts` exchanges, the servers in turn: a timeout tries the next attempt; an answer
   * another server may know better (SERVFAIL, REFUSED) does too while another server is left, and is
   * returned when nothing better came. Throws the last timeout when no attempt was answered.
   */
  private async attempt<R extends { rcode: Rcode }>(name: string, type: RecordType, servers: DnsServer[], exchange: (server: DnsServer) => Promise<R>): Promise<R> {
    let failure: DnsTimeoutError | undefined;
    let refused: R | undefined;
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      const server = servers[attempt % servers.length] as DnsServer;
      try {
        const response = await exchange(server);
        const anotherServerLeft = servers.length > 1 && attempt + 1 < this.attempts;
        if (RETRY_ELSEWHERE.has(response.rcode) && anotherServerLeft) {
          refused = response;
          continue;
        }
        return response;
      } catch (error) {
        if (!(error instanceof DnsTimeoutError)) throw error;
        failure = error;
      }
    }
    if (refused) return refused;
    throw failure ?? new DnsTimeoutError(name, type, servers[0] as DnsServer);
  }
}

/** The root for queryDnssec (normaliseName refuses the empty name), else the normalised name. */
function dnssecQname(name: string): string {
  return name === '' || name === '.' ? '' : normaliseName(name);
}

/** A resolver for one scan: it holds the scan's cache; the sockets are the shared transport's. */
export function createResolver(options: ResolverOptions): Resolver {
  return new DnsResolver(options);
}
