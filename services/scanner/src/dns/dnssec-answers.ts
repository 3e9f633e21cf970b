import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, DnskeyData, DsData, RrsigData } from 'dns-packet';
import { negativeTtlOf, rcodeOf } from './packet-fields.js';
import type { DnskeyAnswer, DnssecRecord, DnssecResponse, DnssecSignature, DsAnswer, RrsigAnswer } from './types.js';

/**
 * The DNSSEC side of the resolver: the answers of queryDnssec, each record with its rdata in the
 * canonical form RFC 4034 §6.2 signs, and the data of the DNSKEY, DS and RRSIG types.
 *
 * dns-packet has decoded the message (names decompressed), so the rdata is its re-encoding of the
 * decoded record: byte for byte what was sent for every well-formed record, since dns-packet never
 * compresses. Not for a domain name whose labels hold a dot or bytes that are not UTF-8 (decoded as
 * text): such a record would fail its signature check. No mail domain's SOA, MX or DNSKEY is one.
 */

/** Type numbers (IANA "Resource Record (RR) TYPEs") of the types dns-packet names. */
const TYPE_CODES: Record<string, number> = {
  A: 1, NS: 2, CNAME: 5, SOA: 6, NULL: 10, PTR: 12, HINFO: 13, MX: 15, TXT: 16, RP: 17, AFSDB: 18, KEY: 25, AAAA: 28,
  LOC: 29, SRV: 33, NAPTR: 35, KX: 36, CERT: 37, DNAME: 39, OPT: 41, APL: 42, DS: 43, SSHFP: 44, IPSECKEY: 45,
  RRSIG: 46, NSEC: 47, DNSKEY: 48, DHCID: 49, NSEC3: 50, NSEC3PARAM: 51, TLSA: 52, HIP: 55, CDS: 59, CDNSKEY: 60,
  SPF: 99, TKEY: 249, TSIG: 250, IXFR: 251, AXFR: 252, ANY: 255, URI: 256, CAA: 257, TA: 32768, DLV: 32769,
};

/** The number of a type mnemonic as dns-packet writes them ('UNKNOWN_65534' for unnamed ones); null if unknown. */
export function typeCode(type: string): number | null {
  const upper = type.toUpperCase();
  const known = TYPE_CODES[upper];
  if (known !== undefined) return known;
  const match = /^UNKNOWN_(\d{1,5})$/.exec(upper);
  return match ? Number(match[1]) : null;
}

/** Lower-case without the trailing dot; the root is ''. */
export function dnssecName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === '.' || lower === '') return '';
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Lower-cases the domain names embedded in the rdata of the types RFC 4034 §6.2 lists (RFC 6840 §5.1: not NSEC). */
function canonicalData(answer: Answer): Answer {
  const lower = (name: string) => name.toLowerCase();
  switch (answer.type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return { ...answer, data: lower(answer.data) };
    case 'SOA':
      return { ...answer, data: { ...answer.data, mname: lower(answer.data.mname), rname: lower(answer.data.rname) } };
    case 'MX':
      return { ...answer, data: { ...answer.data, exchange: lower(answer.data.exchange) } };
    case 'SRV':
      return { ...answer, data: { ...answer.data, target: lower(answer.data.target) } };
    case 'NAPTR':
      return { ...answer, data: { ...answer.data, replacement: lower(answer.data.replacement) } };
    case 'RP':
      return { ...answer, data: { mbox: lower(answer.data.mbox), txt: lower(answer.data.txt) } };
    case 'RRSIG':
      return { ...answer, data: { ...answer.data, signersName: lower(answer.data.signersName) } };
    default:
      return answer;
  }
}

/** Message header (12) + root owner (1) + type, class, TTL, rdlength (10). */
const RDATA_OFFSET = 12 + 1 + 10;

/** The record's rdata in canonical form: re-encoded under the root owner, then cut out of the message. */
export function canonicalRdata(answer: Answer): Buffer {
  const record = { ...canonicalData(answer), name: '.', ttl: 0, class: 'IN' } as Answer;
  const message = dnsPacket.encode({ type: 'response', id: 0, flags: 0, answers: [record] });
  return Buffer.from(message.subarray(RDATA_OFFSET));
}

function dnskeyData(data: DnskeyData): DnskeyAnswer {
  // dns-packet refuses to decode any protocol but 3 (RFC 4034 §2.1.2), so a decoded key has 3.
  return { flags: data.flags, protocol: 3, algorithm: data.algorithm, key: Buffer.from(data.key) };
}

function dsData(data: DsData): DsAnswer {
  return { keyTag: data.keyTag, algorithm: data.algorithm, digestType: data.digestType, digest: data.digest.toString('hex') };
}

function rrsigData(data: RrsigData): RrsigAnswer {
  return {
    typeCovered: data.typeCovered,
    algorithm: data.algorithm,
    labels: data.labels,
    originalTtl: data.originalTTL,
    expiration: data.expiration,
    inception: data.inception,
    keyTag: data.keyTag,
    signerName: dnssecName(data.signersName),
    signature: Buffer.from(data.signature),
  };
}

/** The data of a DNSKEY, DS or RRSIG answer for query()/lookup(); undefined for other types. */
export function dnssecAnswerData(answer: Answer): DnskeyAnswer | DsAnswer | RrsigAnswer | undefined {
  switch (answer.type) {
    case 'DNSKEY':
      return dnskeyData(answer.data);
    case 'DS':
      return dsData(answer.data);
    case 'RRSIG':
      return rrsigData(answer.data);
    default:
      return undefined;
  }
}

/** The record as validation reads it; null for a type without a number (never in practice) or an OPT. */
function dnssecRecord(answer: Answer): DnssecRecord | null {
  if (answer.type === 'OPT') return null;
  const code = typeCode(answer.type);
  if (code === null) return null;
  return { name: dnssecName(answer.name), type: answer.type, typeCode: code, ttl: answer.ttl ?? 0, rdata: canonicalRdata(answer) };
}

function signature(answer: Answer, section: DnssecSignature['section']): DnssecSignature | null {
  if (answer.type !== 'RRSIG') return null;
  const data = rrsigData(answer.data);
  const rdata = canonicalRdata(answer);
  return { ...data, name: dnssecName(answer.name), section, signedPrefix: rdata.subarray(0, rdata.length - data.signature.length) };
}

export function toDnssecResponse(packet: DecodedPacket, timeMs: number, truncatedRetriedOverTcp: boolean): DnssecResponse {
  const answers: DnssecRecord[] = [];
  const authorities: DnssecRecord[] = [];
  const rrsigs: DnssecSignature[] = [];
  let ttl = Infinity;
  for (const [section, list, into] of [
    ['answer', packet.answers ?? [], answers],
    ['authority', packet.authorities ?? [], authorities],
  ] as const) {
    for (const answer of list) {
      if (answer.type === 'RRSIG') {
        const rrsig = signature(answer, section);
        if (rrsig) rrsigs.push(rrsig);
        continue;
      }
      const record = dnssecRecord(answer);
      if (!record) continue;
      into.push(record);
      if (section === 'answer') ttl = Math.min(ttl, record.ttl);
    }
  }
  return {
    rcode: rcodeOf(packet),
    answers,
    authorities,
    rrsigs,
    authenticatedData: packet.flag_ad,
    authoritative: packet.flag_aa,
    timeMs,
    truncatedRetriedOverTcp,
    ttl: answers.length > 0 && Number.isFinite(ttl) ? ttl : 0,
    negativeTtl: negativeTtlOf(packet),
  };
}
