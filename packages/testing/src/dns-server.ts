import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet, Question } from 'dns-packet';

/**
 * A real DNS server on loopback (UDP and TCP on the same port) that serves fixture zones, for the
 * scanner's tests and benchmarks. It answers authoritatively (AA) for every name it holds, answers
 * recursion-desired queries the same way (RA set) so it can stand in as the recursive resolver, and
 * never refers or recurses anywhere. CNAMEs are chased within its own data, as an authoritative
 * server does for in-zone targets (RFC 1034 §4.3.2 step 3a). To a query with DNSSEC OK it adds the
 * RRSIGs of the fixtures (dnssec.ts signs them) and, to a negative answer, the zone's signed SOA; it
 * sends no NSEC or NSEC3 records.
 */

export interface DnsFixtureMx {
  priority: number;
  exchange: string;
}

export interface DnsFixtureSoa {
  mname: string;
  rname: string;
  serial: number;
  refresh?: number;
  retry?: number;
  expire?: number;
  minimum?: number;
}

/** A TLSA record (RFC 6698 §2.1); `data` as hex (any case) or raw bytes, sent as given even when malformed. */
export interface DnsFixtureTlsa {
  usage: number;
  selector: number;
  matchingType: number;
  data: string | Buffer;
}

/** A DNSKEY record (RFC 4034 §2.1); the key field as raw bytes (see dnssec.ts for generated ones). */
export interface DnsFixtureDnskey {
  flags: number;
  algorithm: number;
  key: Buffer;
}

/** A DS record (RFC 4034 §5.1); `digest` as hex (any case) or raw bytes. */
export interface DnsFixtureDs {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: string | Buffer;
}

/** An RRSIG record (RFC 4034 §3.1), sent only to queries with DNSSEC OK, with the RRset it covers. */
export interface DnsFixtureRrsig {
  typeCovered: string;
  algorithm: number;
  labels: number;
  originalTTL: number;
  /** Seconds since 1970 modulo 2^32 (RFC 4034 §3.1.5). */
  expiration: number;
  inception: number;
  keyTag: number;
  signersName: string;
  signature: Buffer;
}

/**
 * The records of one name. TXT: a string (UTF-8) longer than 255 bytes is split into several
 * character-strings; an array gives the character-strings explicitly (a Buffer for raw bytes).
 * DNSSEC: DNSKEY and DS as records; RRSIG entries are served with the RRset whose type they cover
 * when the query sets DNSSEC OK (RFC 4035 §3.1.1), and asked for directly as type RRSIG.
 */
export interface DnsFixtureRecords {
  A?: string[];
  AAAA?: string[];
  MX?: DnsFixtureMx[];
  TXT?: Array<string | Array<string | Buffer>>;
  NS?: string[];
  CNAME?: string;
  PTR?: string[];
  SOA?: DnsFixtureSoa;
  TLSA?: DnsFixtureTlsa[];
  DNSKEY?: DnsFixtureDnskey[];
  DS?: DnsFixtureDs[];
  RRSIG?: DnsFixtureRrsig[];
}

export type DnsFixtureType = keyof DnsFixtureRecords;

/**
 * How the server treats a name and every name below it:
 * - 'timeout': never answers (the query is still counted and logged);
 * - 'servfail' / 'refused': answers with that rcode and no records;
 * - 'truncate': over UDP answers TC=1 with no records, over TCP the full answer;
 * - 'spoof': over UDP first sends a response with a wrong id and one with the right id but another
 *   question (both carrying 192.0.2.66 / "spoofed"), then the real answer 20 ms later;
 * - { delayMs }: answers normally after a delay.
 */
export type DnsBehaviour = 'timeout' | 'servfail' | 'refused' | 'truncate' | 'spoof' | { delayMs: number };

export interface DnsServerOptions {
  /** Names (any case, optional trailing dot; `*.zone` for wildcards) to their records. */
  records?: Record<string, DnsFixtureRecords>;
  behaviours?: Record<string, DnsBehaviour>;
  /** TTL of every answer; default 300. */
  ttl?: number;
  /** Keep `queryLog` (default true); benchmarks turn it off so memory stays flat. `queries` always counts. */
  logQueries?: boolean;
}

export interface DnsQueryLogEntry {
  /** The question name as received (case preserved), without a trailing dot. */
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  id: number;
  recursionDesired: boolean;
  /** Whether the query carried an EDNS0 OPT record, and its advertised UDP payload size. */
  ednsUdpSize: number | null;
  /** The DNSSEC OK bit of the OPT record (RFC 3225) and the header's Checking Disabled bit (RFC 4035 §3.2.2). */
  dnssecOk: boolean;
  checkingDisabled: boolean;
}

export interface TestDnsServer {
  host: '127.0.0.1';
  port: number;
  /** `127.0.0.1:PORT`, the form DNS_SERVERS takes. */
  url: string;
  /** Questions received over UDP and TCP since start (or the last resetLog). */
  readonly queries: number;
  readonly queryLog: DnsQueryLogEntry[];
  /** Replaces the records of one type at a name; undefined or an empty array removes them. */
  setRecords<T extends DnsFixtureType>(name: string, type: T, values: DnsFixtureRecords[T] | undefined): void;
  /** Replaces every record of a name; undefined removes the name. */
  setName(name: string, records: DnsFixtureRecords | undefined): void;
  /** Sets (or with undefined removes) the behaviour of a name and the names below it. */
  setBehaviour(name: string, behaviour: DnsBehaviour | undefined): void;
  /** Clears the query counter and log. */
  resetLog(): void;
  close(): Promise<void>;
}

const SPOOFED_A = '192.0.2.66';
const MAX_CNAME_HOPS = 8;
const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** The name one label up ('' is the root); null above the root. */
function parentOf(name: string): string | null {
  if (name === '') return null;
  const dot = name.indexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

function normalise(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Splits a TXT value into character-strings of at most 255 bytes (RFC 1035 §3.3.14). */
function txtStrings(value: string | Array<string | Buffer>): Buffer[] {
  if (Array.isArray(value)) return value.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part));
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 0) return [bytes];
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 255) parts.push(bytes.subarray(offset, offset + 255));
  return parts;
}

/**
 * The records of one type at a name as dns-packet answers, `owner` as given (case kept): what the
 * server sends, and what dnssec.ts signs.
 */
export function fixtureRecords(owner: string, records: DnsFixtureRecords, type: string, ttl: number): Answer[] {
  const base = { name: owner, ttl, class: 'IN' as const };
  switch (type) {
    case 'A':
      return (records.A ?? []).map((data) => ({ ...base, type: 'A' as const, data }));
    case 'AAAA':
      return (records.AAAA ?? []).map((data) => ({ ...base, type: 'AAAA' as const, data }));
    case 'NS':
      return (records.NS ?? []).map((data) => ({ ...base, type: 'NS' as const, data }));
    case 'PTR':
      return (records.PTR ?? []).map((data) => ({ ...base, type: 'PTR' as const, data }));
    case 'CNAME':
      return records.CNAME ? [{ ...base, type: 'CNAME' as const, data: records.CNAME }] : [];
    case 'MX':
      return (records.MX ?? []).map((mx) => ({
        ...base,
        type: 'MX' as const,
        data: { preference: mx.priority, exchange: mx.exchange },
      }));
    case 'TXT':
      return (records.TXT ?? []).map((value) => ({ ...base, type: 'TXT' as const, data: txtStrings(value) }));
    case 'TLSA':
      return (records.TLSA ?? []).map((tlsa) => ({
        ...base,
        type: 'TLSA' as const,
        data: {
          usage: tlsa.usage,
          selector: tlsa.selector,
          matchingType: tlsa.matchingType,
          certificate: typeof tlsa.data === 'string' ? Buffer.from(tlsa.data, 'hex') : tlsa.data,
        },
      }));
    case 'SOA': {
      const soa = records.SOA;
      if (!soa) return [];
      return [
        {
          ...base,
          type: 'SOA' as const,
          data: {
            mname: soa.mname,
            rname: soa.rname,
            serial: soa.serial,
            refresh: soa.refresh ?? 3600,
            retry: soa.retry ?? 600,
            expire: soa.expire ?? 604800,
            minimum: soa.minimum ?? 300,
          },
        },
      ];
    }
    case 'DNSKEY':
      return (records.DNSKEY ?? []).map((key) => ({ ...base, type: 'DNSKEY' as const, data: { flags: key.flags, algorithm: key.algorithm, key: key.key } }));
    case 'DS':
      return (records.DS ?? []).map((ds) => ({
        ...base,
        type: 'DS' as const,
        data: { keyTag: ds.keyTag, algorithm: ds.algorithm, digestType: ds.digestType, digest: typeof ds.digest === 'string' ? Buffer.from(ds.digest, 'hex') : ds.digest },
      }));
    case 'RRSIG':
      return (records.RRSIG ?? []).map((sig) => ({ ...base, type: 'RRSIG' as const, data: { ...sig } }));
    default:
      return [];
  }
}

export async function startDnsServer(options: DnsServerOptions = {}): Promise<TestDnsServer> {
  const ttl = options.ttl ?? 300;
  const logQueries = options.logQueries ?? true;
  let closed = false;
  const zone = new Map<string, DnsFixtureRecords>();
  const behaviours = new Map<string, DnsBehaviour>();
  let emptyNonTerminals: Set<string> | null = null;
  const queryLog: DnsQueryLogEntry[] = [];
  let queries = 0;

  for (const [name, records] of Object.entries(options.records ?? {})) zone.set(normalise(name), { ...records });
  for (const [name, behaviour] of Object.entries(options.behaviours ?? {})) behaviours.set(normalise(name), behaviour);

  /** Names that own no records but have descendants that do: NODATA rather than NXDOMAIN (RFC 8020). */
  function isEmptyNonTerminal(name: string): boolean {
    if (!emptyNonTerminals) {
      emptyNonTerminals = new Set();
      for (const owner of zone.keys()) {
        const labels = owner.split('.');
        for (let i = 1; i < labels.length; i++) emptyNonTerminals.add(labels.slice(i).join('.'));
      }
    }
    return emptyNonTerminals.has(name);
  }

  function behaviourFor(name: string): DnsBehaviour | undefined {
    if (behaviours.size === 0) return undefined;
    let current = name;
    for (;;) {
      const found = behaviours.get(current);
      if (found) return found;
      const dot = current.indexOf('.');
      if (dot < 0) return undefined;
      current = current.slice(dot + 1);
    }
  }

  /** The records owning a name: the exact name, else the closest wildcard above it (RFC 4592, simplified). */
  function find(name: string): DnsFixtureRecords | undefined {
    const exact = zone.get(name);
    if (exact) return exact;
    if (isEmptyNonTerminal(name)) return undefined;
    let rest = name;
    for (;;) {
      const dot = rest.indexOf('.');
      if (dot < 0) return undefined;
      rest = rest.slice(dot + 1);
      const wildcard = zone.get(`*.${rest}`);
      if (wildcard) return wildcard;
      if (zone.has(rest)) return undefined;
    }
  }

  /** Builds the answer section and rcode for one question; `owner` is the last name of a CNAME chain. */
  function resolve(question: Question): { rcode: number; answers: Answer[]; owner: string } {
    const answers: Answer[] = [];
    let owner = question.name.endsWith('.') ? question.name.slice(0, -1) : question.name;
    for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
      const records = find(normalise(owner));
      if (!records) {
        // After a CNAME the rcode describes the last name of the chain (RFC 6604).
        return { rcode: isEmptyNonTerminal(normalise(owner)) ? RCODE.NOERROR : RCODE.NXDOMAIN, answers, owner };
      }
      const direct = fixtureRecords(owner, records, question.type, ttl);
      if (direct.length > 0 || question.type === 'CNAME' || !records.CNAME) {
        answers.push(...direct);
        return { rcode: RCODE.NOERROR, answers, owner };
      }
      answers.push(...fixtureRecords(owner, records, 'CNAME', ttl));
      owner = records.CNAME;
    }
    return { rcode: RCODE.SERVFAIL, answers, owner };
  }

  /**
   * DNSSEC OK (RFC 4035 §3.1.1, §3.1.3): the RRSIGs covering each RRset of the answer (a wildcard's
   * signatures under the name asked), and for a negative answer the SOA of the zone the name falls in
   * with its RRSIGs in the authority section: the zone is the closest name at or above it holding an
   * SOA, and for a DS question the closest one above it (the parent side of a zone cut, RFC 4035 §3.1.4.1).
   * No NSEC or NSEC3 records: the fixture proves no denial of existence (RFC 4035 §3.1.3).
   */
  function signed(question: Question, rcode: number, answers: Answer[], owner: string): { answers: Answer[]; authorities: Answer[] } {
    const withSignatures: Answer[] = [...answers];
    const covered = new Set<string>();
    for (const answer of answers) {
      const key = `${normalise(answer.name)} ${answer.type}`;
      if (answer.type === 'RRSIG' || covered.has(key)) continue;
      covered.add(key);
      const records = find(normalise(answer.name));
      for (const sig of records?.RRSIG ?? []) {
        if (sig.typeCovered !== answer.type) continue;
        withSignatures.push({ name: answer.name, type: 'RRSIG', ttl, class: 'IN', data: { ...sig } });
      }
    }
    const negative = rcode === RCODE.NXDOMAIN || !answers.some((answer) => answer.type === question.type);
    if (!negative || (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN)) return { answers: withSignatures, authorities: [] };
    let apex: string | null = normalise(owner);
    if (question.type === 'DS' && answers.length === 0) apex = parentOf(apex);
    while (apex !== null && !zone.get(apex)?.SOA) apex = parentOf(apex);
    if (apex === null) return { answers: withSignatures, authorities: [] };
    const apexRecords = zone.get(apex) as DnsFixtureRecords;
    const authorities = fixtureRecords(apex === '' ? '.' : apex, apexRecords, 'SOA', ttl);
    for (const sig of apexRecords.RRSIG ?? []) {
      if (sig.typeCovered === 'SOA') authorities.push({ name: apex === '' ? '.' : apex, type: 'RRSIG', ttl, class: 'IN', data: { ...sig } });
    }
    return { answers: withSignatures, authorities };
  }

  function respond(query: DecodedPacket, transport: 'udp' | 'tcp', send: (packet: Packet) => void): void {
    const question = query.questions?.[0];
    const opt = query.additionals?.find((record) => record.type === 'OPT');
    const ednsUdpSize = opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : null;
    const id = query.id ?? 0;
    const recursionDesired = query.flag_rd;
    const dnssecOk = opt !== undefined && 'flag_do' in opt && opt.flag_do === true;
    const checkingDisabled = query.flag_cd;
    const header = (rcode: number, truncated = false): Packet => ({
      type: 'response',
      id,
      flags:
        dnsPacket.AUTHORITATIVE_ANSWER |
        (recursionDesired ? dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE : 0) |
        (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) |
        (checkingDisabled ? dnsPacket.CHECKING_DISABLED : 0) |
        rcode,
      questions: question ? [question] : [],
      answers: [],
      additionals: ednsUdpSize !== null ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0, flag_do: dnssecOk, options: [] }] : [],
    });

    if (!question || query.type !== 'query') {
      send(header(RCODE.NOTIMP));
      return;
    }
    queries++;
    const name = question.name.endsWith('.') ? question.name.slice(0, -1) : question.name;
    if (logQueries) queryLog.push({ name, type: question.type, transport, id, recursionDesired, ednsUdpSize, dnssecOk, checkingDisabled });

    const behaviour = behaviourFor(normalise(name));
    if (behaviour === 'timeout') return;
    if (behaviour === 'servfail') return send(header(RCODE.SERVFAIL));
    if (behaviour === 'refused') return send(header(RCODE.REFUSED));
    if (behaviour === 'truncate' && transport === 'udp') return send(header(RCODE.NOERROR, true));

    const answer = (): void => {
      const resolved = resolve(question);
      const { rcode } = resolved;
      const { answers, authorities } = dnssecOk ? signed(question, rcode, resolved.answers, resolved.owner) : { answers: resolved.answers, authorities: [] };
      const response = { ...header(rcode), answers, authorities };
      // Real truncation too: a UDP answer larger than the client's buffer (512 without EDNS0).
      if (transport === 'udp' && dnsPacket.encodingLength(response) > Math.max(512, ednsUdpSize ?? 512)) {
        send(header(rcode, true));
        return;
      }
      send(response);
    };

    if (behaviour === 'spoof' && transport === 'udp') {
      const forged = (packet: Packet) => ({
        ...packet,
        answers: [
          question.type === 'TXT'
            ? { name, type: 'TXT' as const, ttl, class: 'IN' as const, data: 'spoofed' }
            : { name, type: 'A' as const, ttl, class: 'IN' as const, data: SPOOFED_A },
        ],
      });
      send(forged({ ...header(RCODE.NOERROR), id: (id + 1) & 0xffff }));
      send({ ...forged(header(RCODE.NOERROR)), questions: [{ ...question, name: `spoofed.${name}` }] });
      setTimeout(answer, 20);
      return;
    }
    if (typeof behaviour === 'object') {
      setTimeout(answer, behaviour.delayMs);
      return;
    }
    answer();
  }

  function decode(message: Buffer): DecodedPacket | null {
    try {
      return dnsPacket.decode(message);
    } catch {
      return null;
    }
  }

  const tcpSockets = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    tcpSockets.add(socket);
    socket.on('close', () => tcpSockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        const query = decode(message);
        if (!query) {
          socket.destroy();
          return;
        }
        respond(query, 'tcp', (packet) => {
          if (closed || socket.destroyed) return;
          const body = dnsPacket.encode(packet);
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(body.length);
          socket.write(Buffer.concat([prefix, body]));
        });
      }
    });
  });

  const createUdp = (): dgram.Socket => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (message, remote) => {
      const query = decode(message);
      if (!query) return;
      respond(query, 'udp', (packet) => {
        // A delayed answer may come due after close().
        if (closed) return;
        socket.send(dnsPacket.encode(packet), remote.port, remote.address);
      });
    });
    return socket;
  };
  const { udp, port } = await bindBoth(createUdp, tcp);
  udp.on('error', () => undefined);
  try {
    // Bursts from a thousand concurrent scans overflow the default ~200 KB buffer.
    udp.setRecvBufferSize(4 * 1024 * 1024);
    udp.setSendBufferSize(4 * 1024 * 1024);
  } catch {
    // Capped by the OS (net.core.rmem_max); the default still works at test loads.
  }

  return {
    host: '127.0.0.1',
    port,
    url: `127.0.0.1:${port}`,
    get queries() {
      return queries;
    },
    queryLog,
    setRecords(name, type, values) {
      const owner = normalise(name);
      const records = zone.get(owner) ?? {};
      const empty = values === undefined || (Array.isArray(values) && values.length === 0);
      if (empty) delete records[type];
      else records[type] = values;
      if (Object.keys(records).length === 0) zone.delete(owner);
      else zone.set(owner, records);
      emptyNonTerminals = null;
    },
    setName(name, records) {
      if (records === undefined) zone.delete(normalise(name));
      else zone.set(normalise(name), { ...records });
      emptyNonTerminals = null;
    },
    setBehaviour(name, behaviour) {
      if (behaviour === undefined) behaviours.delete(normalise(name));
      else behaviours.set(normalise(name), behaviour);
    },
    resetLog() {
      queries = 0;
      queryLog.length = 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const socket of tcpSockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

/** Binds UDP to a free port, then TCP to the same one; tries again if TCP finds it taken. */
async function bindBoth(
  createUdp: () => dgram.Socket,
  tcp: net.Server,
): Promise<{ udp: dgram.Socket; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const udp = createUdp();
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => {
        udp.off('error', reject);
        resolve(udp.address().port);
      });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, port };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (attempt >= 10) throw error;
    }
  }
}
