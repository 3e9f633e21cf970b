/**
 * The one DNS interface every check uses. The implementation (resolver.ts) talks to `DNS_SERVERS`
 * with a per-query timeout, one retry and TCP fallback on truncation, and caches per scan so no
 * question is asked twice in one scan.
 */
export type RecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'NS' | 'SOA' | 'CNAME' | 'PTR' | 'TLSA';

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED' | 'FORMERR' | 'NOTIMP' | 'OTHER';

export interface MxAnswer {
  exchange: string;
  priority: number;
}

export interface SoaAnswer {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/** A TLSA record (RFC 6698 §2.1): the three parameters as sent, the association data as lower-case hex. */
export interface TlsaAnswer {
  /** Certificate usage: 0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE (RFC 7218 names). */
  usage: number;
  /** 0 the full certificate, 1 its SubjectPublicKeyInfo. */
  selector: number;
  /** 0 exact bytes, 1 SHA-256, 2 SHA-512. */
  matchingType: number;
  /** The certificate association data, lower-case hex (empty when the record carries none). */
  data: string;
}

/** What each record type's data looks like in an answer. */
export interface RecordData {
  A: string;
  AAAA: string;
  MX: MxAnswer;
  /** The character-strings of one TXT record joined without separators (RFC 7208 §3.3). */
  TXT: string;
  NS: string;
  SOA: SoaAnswer;
  CNAME: string;
  PTR: string;
  TLSA: TlsaAnswer;
}

export interface DnsServer {
  host: string;
  port: number;
}

export interface DnsResponse<T extends RecordType = RecordType> {
  rcode: Rcode;
  /** Answers of the asked type only (CNAME chains followed by the recursive server). */
  answers: Array<RecordData[T]>;
  /** Authoritative answer flag, for the DNS performance check. */
  authoritative: boolean;
  /** Round-trip time of the query that produced this response (0 when served from the scan cache). */
  timeMs: number;
  truncatedRetriedOverTcp: boolean;
  /** Seconds the answer may be kept: the smallest TTL of the answer section's records (CNAMEs included); 0 without records. */
  ttl: number;
  /**
   * For a negative answer (NXDOMAIN or no records), seconds it may be kept per RFC 2308 §5:
   * min(TTL, MINIMUM) of the authority section's SOA; null when the server sent no SOA.
   */
  negativeTtl: number | null;
}

/** A query that got no usable answer: every attempt timed out, or the network failed. */
export class DnsTimeoutError extends Error {
  override name = 'DnsTimeoutError';
  constructor(
    readonly qname: string,
    readonly qtype: RecordType,
    readonly server: DnsServer,
  ) {
    // The server stays out of the text, which reaches scan results: it is our own resolver's address.
    super(`DNS query ${qtype} ${qname} timed out`);
  }
}

export interface QueryOptions {
  /** Ask this server instead of DNS_SERVERS (e.g. an authoritative name server); bypasses the cache. */
  server?: DnsServer;
  /** Recursion desired; false for questions to authoritative servers. Default true. */
  recurse?: boolean;
  /**
   * The answer does not depend on the domain being scanned (a DNSBL lookup of an address, another
   * organisation's mail host or SPF record): it may come from, and goes to, the process-wide shared
   * cache when the resolver has one (shared-cache.ts), within the answer's TTL.
   */
  shared?: boolean;
}

export interface Resolver {
  /** The full response; NXDOMAIN and empty answers are responses, not errors. Timeouts throw DnsTimeoutError. */
  query<T extends RecordType>(name: string, type: T, options?: QueryOptions): Promise<DnsResponse<T>>;
  /** Shorthand: the answers' data; [] for NXDOMAIN or no data. Throws DnsTimeoutError, and on SERVFAIL/REFUSED a DnsServerError. */
  lookup<T extends RecordType>(name: string, type: T, options?: Pick<QueryOptions, 'shared'>): Promise<Array<RecordData[T]>>;
  /** Questions actually sent on the network in this scan (cache hits excluded), for figures and benchmarks. */
  readonly queriesSent: number;
}

/** SERVFAIL, REFUSED and the like from the recursive server: a temporary error for SPF (temperror). */
export class DnsServerError extends Error {
  override name = 'DnsServerError';
  constructor(
    readonly qname: string,
    readonly qtype: RecordType,
    readonly rcode: Rcode,
  ) {
    super(`DNS query ${qtype} ${qname} failed with ${rcode}`);
  }
}
