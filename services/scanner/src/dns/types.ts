/**
 * The one DNS interface every check uses. The implementation (resolver.ts) talks to `DNS_SERVERS`
 * with a per-query timeout, one retry and TCP fallback on truncation, and caches per scan so no
 * question is asked twice in one scan.
 */
export type RecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'NS' | 'SOA' | 'CNAME' | 'PTR' | 'TLSA' | DnssecRecordType;

/** The DNSSEC record types (RFC 4034 §2–§5); see queryDnssec for answers with their signatures. */
export type DnssecRecordType = 'DNSKEY' | 'DS' | 'RRSIG';

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
  DNSKEY: DnskeyAnswer;
  DS: DsAnswer;
  RRSIG: RrsigAnswer;
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
  /** Only for a question asked with `timing`: when it left and when its answer arrived, at the socket. */
  timing?: DnsTiming;
}

/** performance.now() times taken in the socket's callbacks, for judging the loop lag between them (src/timing/). */
export interface DnsTiming {
  sentAt: number;
  receivedAt: number;
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
  /**
   * A timing probe (with `server`): asked on the timing transport's own socket (dns/timing-transport.ts)
   * rather than the shared pool, and answered with `timing`, the socket's timestamps.
   */
  timing?: boolean;
}

export interface Resolver {
  /** The full response; NXDOMAIN and empty answers are responses, not errors. Timeouts throw DnsTimeoutError. */
  query<T extends RecordType>(name: string, type: T, options?: QueryOptions): Promise<DnsResponse<T>>;
  /** Shorthand: the answers' data; [] for NXDOMAIN or no data. Throws DnsTimeoutError, and on SERVFAIL/REFUSED a DnsServerError. */
  lookup<T extends RecordType>(name: string, type: T, options?: Pick<QueryOptions, 'shared'>): Promise<Array<RecordData[T]>>;
  /**
   * The question asked with DNSSEC OK and Checking Disabled (RFC 4035 §3.2.1, §3.2.2), so the
   * recursive server sends the signatures and does not hide data it finds bogus: the answer and
   * authority sections with every record's canonical rdata, and the RRSIGs apart. Cached per scan
   * like query(); `shared` as for query(). Timeouts throw DnsTimeoutError; other rcodes are returned.
   */
  queryDnssec(name: string, type: RecordType, options?: Pick<QueryOptions, 'shared'>): Promise<DnssecResponse>;
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

/* ------------------------------------------------------------------------------------------------
 * DNSSEC (RFC 4033–4035): the record types and the answers of queryDnssec.
 * ---------------------------------------------------------------------------------------------- */

/** A DNSKEY record (RFC 4034 §2.1): `key` is the public key field as sent. */
export interface DnskeyAnswer {
  /** 256 a zone key, 257 a zone key with the Secure Entry Point bit (a KSK). */
  flags: number;
  protocol: number;
  algorithm: number;
  key: Buffer;
}

/** A DS record (RFC 4034 §5.1). */
export interface DsAnswer {
  keyTag: number;
  algorithm: number;
  digestType: number;
  /** The digest, lower-case hex. */
  digest: string;
}

/** An RRSIG record (RFC 4034 §3.1); times are the 32-bit fields as sent (seconds, serial arithmetic). */
export interface RrsigAnswer {
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTtl: number;
  expiration: number;
  inception: number;
  keyTag: number;
  /** Lower-case, without the trailing dot; '' for the root. */
  signerName: string;
  signature: Buffer;
}

/** One resource record of a DNSSEC answer, with what validation needs to rebuild the signed RRset. */
export interface DnssecRecord {
  /** Owner name, lower-case, without the trailing dot; '' for the root. */
  name: string;
  /** The type's mnemonic ('SOA', 'DNSKEY', 'UNKNOWN_65534' for one dns-packet does not name). */
  type: string;
  /** The type's number, as it goes into the signed data. */
  typeCode: number;
  ttl: number;
  /**
   * The rdata in canonical form (RFC 4034 §6.2): uncompressed, with the domain names inside the rdata
   * of the types listed there (NS, CNAME, SOA, MX, PTR, …; RFC 6840 §5.1) lower-cased.
   */
  rdata: Buffer;
}

/** An RRSIG as it came, with its owner and section. */
export interface DnssecSignature extends RrsigAnswer {
  /** Owner name of the RRSIG (the RRset it covers), lower-case without the trailing dot. */
  name: string;
  section: 'answer' | 'authority';
  /** The canonical rdata of the RRSIG up to (without) the Signature field: the start of the signed data (RFC 4034 §3.1.8.1). */
  signedPrefix: Buffer;
}

export interface DnssecResponse {
  rcode: Rcode;
  /** The answer section without the RRSIGs (CNAMEs of a chain included). */
  answers: DnssecRecord[];
  /** The authority section without the RRSIGs (the SOA and NSEC/NSEC3 of a negative answer). */
  authorities: DnssecRecord[];
  /** The RRSIGs of both sections. */
  rrsigs: DnssecSignature[];
  /** The server's Authenticated Data bit, for information only: the check validates itself. */
  authenticatedData: boolean;
  authoritative: boolean;
  timeMs: number;
  truncatedRetriedOverTcp: boolean;
  /** As DnsResponse: the smallest TTL of the answer section; 0 without records. */
  ttl: number;
  negativeTtl: number | null;
}
