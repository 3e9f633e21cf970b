import { randomFillSync } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { DnsTimeoutError, type DnsServer, type RecordType } from './types.js';

/**
 * The process-wide DNS transport: a small pool of UDP sockets shared by every resolver (one per
 * scan), with an id → pending-question map per socket, and a TCP connection per truncated answer.
 * A thousand concurrent scans therefore cost a handful of file descriptors, not one per query. The
 * shared transport's sockets are connected to the recursive server they ask (a pool per server).
 *
 * Spoofing defences (RFC 5452 §9): random 16-bit ids from a CSPRNG, OS-chosen source ports (one per
 * pooled socket), and a response is only accepted from the queried address and port, with the id AND
 * the question (name, type, class) matching; anything else is dropped while the query keeps waiting.
 */

/** EDNS0 UDP payload size recommended by DNS Flag Day 2020: no IP fragmentation. */
export const EDNS_UDP_PAYLOAD_SIZE = 1232;
/**
 * libuv reads at most 32 datagrams per socket per turn of the event loop: at 200 scans in flight,
 * answers waited in 4 sockets' kernel buffers long enough to time out (bench/scanner); 16 drain them.
 */
const SOCKETS_PER_FAMILY = 16;
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
const MAX_TCP_MESSAGE = 65_535;

export interface DnsQuestion {
  /** Lower-case, without a trailing dot. */
  name: string;
  type: RecordType;
  /** DNSSEC: the DO bit in the OPT record and CD in the header (RFC 4035 §3.2.1, §3.2.2); see encodeQuery. */
  dnssec?: boolean;
}

export interface ExchangeOptions {
  recurse: boolean;
  timeoutMs: number;
  /** Called for every question put on the network (the UDP query and a TCP retry). */
  onSend?: () => void;
}

export interface DnsExchange {
  response: DecodedPacket;
  /**
   * Round trip of the question, including the TCP retry when the UDP answer was truncated:
   * receivedAt − sentAt, both taken in the socket's own callbacks, not after the promise resolved.
   */
  timeMs: number;
  /** performance.now() just before the question was handed to the socket (once the socket was ready). */
  sentAt: number;
  /** performance.now() at the top of the socket's handler of the answer ('message', or 'data' over TCP). */
  receivedAt: number;
  truncatedRetriedOverTcp: boolean;
}

export interface DnsTransport {
  /**
   * One attempt at one server: UDP, then TCP if the answer came back truncated. Throws
   * DnsTimeoutError when no matching answer arrives within timeoutMs (per leg) or the network fails.
   */
  exchange(server: DnsServer, question: DnsQuestion, options: ExchangeOptions): Promise<DnsExchange>;
  /** Questions waiting for an answer right now, for metrics. */
  readonly inFlight: number;
  /** Fails every pending question and closes the sockets. */
  close(): Promise<void>;
}

export interface DnsTransportOptions {
  /** UDP sockets per pool (a server's, or an address family's); each has its own source port and 65,536 ids. Default 16. */
  socketsPerFamily?: number;
  /**
   * Connect the sockets to the server they ask, a pool per server (for the recursive servers: a few,
   * always the same). The kernel then drops datagrams from anyone else before they reach the process,
   * and a send skips dgram's address lookup (a process.nextTick per send). Past MAX_CONNECTED_SERVERS
   * servers, further ones share unconnected sockets. Default false (the timing probes ask thousands
   * of name servers).
   */
  connectToServers?: boolean;
}

/** Most servers with connected sockets of their own; further servers share the family's unconnected pool. */
const MAX_CONNECTED_SERVERS = 8;

interface UdpSlot {
  socket: dgram.Socket;
  pending: Map<number, Pending>;
  /** Bound (and connected, for a server's pool): a send goes out at once. */
  ready: boolean;
  /** Sends waiting for the socket to be ready, in order. */
  backlog: Array<() => void>;
}

/** The sockets of one server (connected to it) or of one address family (unconnected), used in turn. */
interface SlotPool {
  family: 'udp4' | 'udp6';
  /** The server the sockets are connected to; undefined for an unconnected pool. */
  server: DnsServer | undefined;
  slots: Array<UdpSlot | undefined>;
  cursor: number;
}

/** An answer with the times the socket saw it leave and arrive (performance.now()). */
interface TimedAnswer {
  packet: DecodedPacket;
  sentAt: number;
  receivedAt: number;
}

/**
 * One UDP question waiting for its answer. A class rather than a handful of closures per query: a
 * scan sends ~70 of these, and under tsx every named closure also costs a `__name` property write.
 */
class Pending {
  readonly timer: NodeJS.Timeout;
  private settled = false;
  /** When the question left: just before the send, or in its callback when dgram had to queue it. */
  sentAt = 0;

  constructor(
    private readonly slot: UdpSlot,
    private readonly id: number,
    readonly server: DnsServer,
    readonly address: string,
    readonly question: DnsQuestion,
    timeoutMs: number,
    private readonly onSettled: () => void,
    private readonly resolveAnswer: (answer: TimedAnswer) => void,
    private readonly rejectAnswer: (error: Error) => void,
  ) {
    this.timer = setTimeout(timeOut, timeoutMs, this);
  }

  resolve(packet: DecodedPacket, receivedAt: number): void {
    if (!this.finish()) return;
    this.resolveAnswer({ packet, sentAt: this.sentAt, receivedAt });
  }

  /** The network failed (send error, socket error, transport closed). */
  reject(error: Error): void {
    if (!this.finish()) return;
    this.rejectAnswer(networkError(this.question, this.server, error));
  }

  timedOut(): void {
    if (!this.finish()) return;
    this.rejectAnswer(new DnsTimeoutError(this.question.name, this.question.type, this.server));
  }

  /** The send's completion: a failure is the question's. */
  sent(error: Error | null): void {
    if (error) this.reject(error);
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.slot.pending.get(this.id) === this) this.slot.pending.delete(this.id);
    this.onSettled();
    return true;
  }
}

function timeOut(pending: Pending): void {
  pending.timedOut();
}

const QTYPE: Record<RecordType, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, TLSA: 52, DS: 43, RRSIG: 46, DNSKEY: 48 };
const OPT_TYPE = 41;
const CLASS_IN = 1;
const HEADER_BYTES = 12;
/** Root owner (1), type (2), class = UDP payload size (2), TTL = ext. rcode, version, flags (4), rdlength (2). */
const OPT_BYTES = 11;

/**
 * DNSSEC questions (queryDnssec): Checking Disabled in the header, so the recursive server hands over
 * data it would find bogus and the scanner can say why (RFC 4035 §3.2.2), and DNSSEC OK in the OPT
 * record's flags (the top bit of its TTL field), so the RRSIGs come with the answer (RFC 3225 §3).
 */
const DNSSEC_HEADER_FLAGS = dnsPacket.CHECKING_DISABLED;
const DNSSEC_OK = 0x8000;

/**
 * The query message, written directly (RFC 1035 §4.1, EDNS0 OPT per RFC 6891 §6.1.2): the same
 * bytes dns-packet produces for it (dns-transport.test.ts checks), at a fraction of the cost. Every
 * scan sends ~100 of these, so encoding is on the scanner's hottest path.
 */
export function encodeQuery(id: number, question: DnsQuestion, recurse: boolean): Buffer {
  const name = question.name;
  // Labels are written as UTF-8 like dns-packet does; names reaching here are already normalised.
  const nameBytes = name.length === 0 ? 1 : Buffer.byteLength(name) + 2;
  const buffer = Buffer.allocUnsafe(HEADER_BYTES + nameBytes + 4 + OPT_BYTES);
  buffer.writeUInt16BE(id, 0);
  buffer.writeUInt16BE((recurse ? dnsPacket.RECURSION_DESIRED : 0) | (question.dnssec === true ? DNSSEC_HEADER_FLAGS : 0), 2);
  buffer.writeUInt16BE(1, 4); // QDCOUNT
  buffer.writeUInt32BE(0, 6); // ANCOUNT, NSCOUNT
  buffer.writeUInt16BE(1, 10); // ARCOUNT: the OPT record
  let offset = HEADER_BYTES;
  if (name.length > 0) {
    let start = 0;
    while (start <= name.length) {
      let end = name.indexOf('.', start);
      if (end < 0) end = name.length;
      const length = buffer.write(name.slice(start, end), offset + 1, 'utf8');
      buffer[offset] = length;
      offset += 1 + length;
      start = end + 1;
    }
  }
  buffer[offset++] = 0;
  buffer.writeUInt16BE(QTYPE[question.type], offset);
  buffer.writeUInt16BE(CLASS_IN, offset + 2);
  offset += 4;
  buffer[offset] = 0; // OPT owner: the root
  buffer.writeUInt16BE(OPT_TYPE, offset + 1);
  buffer.writeUInt16BE(EDNS_UDP_PAYLOAD_SIZE, offset + 3);
  buffer.writeUInt32BE(question.dnssec === true ? DNSSEC_OK : 0, offset + 5); // extended rcode 0, version 0, DO per question
  buffer.writeUInt16BE(0, offset + 9); // no options
  return buffer;
}

/**
 * Query ids from the CSPRNG (RFC 5452 §9.2), drawn a few thousand at a time: one randomFillSync per
 * 4,096 queries instead of a randomInt call (and its allocation) per query.
 */
const idPool = new Uint16Array(4096);
let idCursor = idPool.length;
function randomId(): number {
  if (idCursor === idPool.length) {
    randomFillSync(idPool);
    idCursor = 0;
  }
  return idPool[idCursor++] as number;
}

interface ServerRoute {
  family: 'udp4' | 'udp6';
  /** The textual form dgram reports for the address, to match responses to the server asked. */
  address: string;
}

/** Per server host: parsed once, not per query (net.isIPv6 runs a large regular expression). */
const routes = new Map<string, ServerRoute>();
function routeOf(host: string): ServerRoute {
  let route = routes.get(host);
  if (!route) {
    route = { family: net.isIPv6(host.split('%')[0] ?? '') ? 'udp6' : 'udp4', address: canonicalAddress(host) };
    if (routes.size < 1_000) routes.set(host, route);
  }
  return route;
}

/** A response answers our question only if it is a response carrying the same question (RFC 5452 §9.1). */
function answersQuestion(packet: DecodedPacket, question: DnsQuestion): boolean {
  if (!packet.flag_qr || packet.questions?.length !== 1) return false;
  const asked = packet.questions[0];
  if (!asked || asked.type !== question.type || (asked.class !== undefined && asked.class !== 'IN')) return false;
  const name = asked.name.toLowerCase();
  return (name.endsWith('.') ? name.slice(0, -1) : name) === question.name;
}

function decode(message: Buffer): DecodedPacket | null {
  // Nothing reads the additional section (the EDNS OPT record, glue addresses): with ARCOUNT set to 0,
  // dns-packet stops after the authority section instead of decoding records only to drop them.
  if (message.length >= HEADER_BYTES) message.writeUInt16BE(0, 10);
  try {
    return dnsPacket.decode(message);
  } catch {
    return null;
  }
}

/** The textual form dgram reports for an address, so responses can be matched to the server asked. */
function canonicalAddress(host: string): string {
  if (net.isIPv6(host) && !host.includes('%')) return new URL(`http://[${host}]`).hostname.slice(1, -1);
  return host;
}

export function createDnsTransport(options: DnsTransportOptions = {}): DnsTransport {
  const socketsPerPool = Math.max(1, options.socketsPerFamily ?? SOCKETS_PER_FAMILY);
  const connectToServers = options.connectToServers ?? false;
  const pools = new Map<string, SlotPool>();
  let connectedPools = 0;
  const tcpSockets = new Set<net.Socket>();
  let inFlight = 0;
  let closed = false;

  /** The server's own pool when it has (or may have) one, else its family's. */
  function poolFor(server: DnsServer, route: ServerRoute): SlotPool {
    if (connectToServers) {
      const key = `${route.family} ${route.address} ${server.port}`;
      let pool = pools.get(key);
      if (!pool && connectedPools < MAX_CONNECTED_SERVERS) {
        pool = { family: route.family, server, slots: [], cursor: 0 };
        pools.set(key, pool);
        connectedPools++;
      }
      if (pool) return pool;
    }
    let pool = pools.get(route.family);
    if (!pool) {
      pool = { family: route.family, server: undefined, slots: [], cursor: 0 };
      pools.set(route.family, pool);
    }
    return pool;
  }

  function openSlot(pool: SlotPool, index: number): UdpSlot {
    const socket = dgram.createSocket(pool.family);
    const slot: UdpSlot = { socket, pending: new Map(), ready: false, backlog: [] };
    // Unref'd: an idle transport never keeps the process alive; pending timers do while needed.
    socket.unref();
    const becomeReady = (): void => {
      slot.ready = true;
      try {
        socket.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
      } catch {
        // The OS cap (net.core.rmem_max) wins; the default buffer still works at lower load.
      }
      const waiting = slot.backlog;
      slot.backlog = [];
      for (const send of waiting) send();
    };
    socket.on('message', (message, remote) => {
      // First: the arrival as near the socket as Node allows, before any decoding.
      const receivedAt = performance.now();
      if (message.length < 12) return;
      const pending = slot.pending.get(message.readUInt16BE(0));
      if (!pending || remote.port !== pending.server.port || remote.address !== pending.address) return;
      const packet = decode(message);
      if (!packet || !answersQuestion(packet, pending.question)) return;
      slot.pending.delete(message.readUInt16BE(0));
      pending.resolve(packet, receivedAt);
    });
    socket.on('error', (error) => {
      // A socket-level failure (also a failed connect): fail its questions (each attempt may retry) and replace the socket.
      if (pool.slots[index] === slot) pool.slots[index] = undefined;
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
      slot.backlog = [];
      socket.close();
    });
    if (pool.server) {
      socket.once('connect', becomeReady);
      socket.connect(pool.server.port, pool.server.host);
    } else {
      socket.once('listening', becomeReady);
      socket.bind();
    }
    pool.slots[index] = slot;
    return slot;
  }

  function pickSlot(pool: SlotPool): UdpSlot {
    const index = pool.cursor;
    pool.cursor = (index + 1) % socketsPerPool;
    return pool.slots[index] ?? openSlot(pool, index);
  }

  function freeId(slot: UdpSlot): number {
    for (;;) {
      const id = randomId();
      if (!slot.pending.has(id)) return id;
    }
  }

  const settled = (): void => {
    inFlight--;
  };

  function udpExchange(server: DnsServer, question: DnsQuestion, recurse: boolean, timeoutMs: number): Promise<TimedAnswer> {
    const route = routeOf(server.host);
    const pool = poolFor(server, route);
    let slot = pickSlot(pool);
    if (slot.pending.size > 60_000) slot = pickSlot(pool);
    const id = freeId(slot);
    return new Promise<TimedAnswer>((resolve, reject) => {
      const pending = new Pending(slot, id, server, route.address, question, timeoutMs, settled, resolve, reject);
      inFlight++;
      slot.pending.set(id, pending);
      const query = encodeQuery(id, question, recurse);
      const send = (): void => {
        pending.sentAt = performance.now();
        const done = (error: Error | null): void => pending.sent(error);
        if (pool.server) slot.socket.send(query, done);
        else slot.socket.send(query, server.port, server.host, done);
      };
      if (slot.ready) send();
      else slot.backlog.push(send);
    });
  }

  /** RFC 1035 §4.2.2 framing: a two-byte length before each message. */
  function tcpExchange(server: DnsServer, question: DnsQuestion, recurse: boolean, timeoutMs: number): Promise<{ packet: DecodedPacket; receivedAt: number }> {
    const id = randomId();
    const query = encodeQuery(id, question, recurse);
    const framed = Buffer.alloc(2 + query.length);
    framed.writeUInt16BE(query.length, 0);
    query.copy(framed, 2);
    return new Promise<{ packet: DecodedPacket; receivedAt: number }>((resolve, reject) => {
      inFlight++;
      const socket = net.connect({ host: server.host, port: server.port });
      tcpSockets.add(socket);
      let buffered = Buffer.alloc(0);
      let done = false;
      const finish = (outcome: () => void) => {
        if (done) return;
        done = true;
        inFlight--;
        clearTimeout(timer);
        tcpSockets.delete(socket);
        socket.destroy();
        outcome();
      };
      const timer = setTimeout(
        () => finish(() => reject(new DnsTimeoutError(question.name, question.type, server))),
        timeoutMs,
      );
      socket.on('connect', () => socket.write(framed));
      socket.on('data', (chunk) => {
        const receivedAt = performance.now();
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        while (buffered.length >= 2) {
          const length = buffered.readUInt16BE(0);
          if (buffered.length < 2 + length) {
            if (buffered.length > 2 + MAX_TCP_MESSAGE) finish(() => reject(networkError(question, server, new Error('oversized TCP message'))));
            return;
          }
          const packet = decode(buffered.subarray(2, 2 + length));
          buffered = buffered.subarray(2 + length);
          if (packet && packet.id === id && answersQuestion(packet, question)) {
            finish(() => resolve({ packet, receivedAt }));
            return;
          }
        }
      });
      socket.on('error', (error) => finish(() => reject(networkError(question, server, error))));
      socket.on('close', () =>
        finish(() => reject(networkError(question, server, new Error('connection closed before an answer')))),
      );
    });
  }

  return {
    get inFlight() {
      return inFlight;
    },
    async exchange(server, question, { recurse, timeoutMs, onSend }) {
      if (closed) throw new Error('DNS transport is closed');
      onSend?.();
      const udp = await udpExchange(server, question, recurse, timeoutMs);
      const { sentAt } = udp;
      if (!udp.packet.flag_tc) {
        return { response: udp.packet, timeMs: udp.receivedAt - sentAt, sentAt, receivedAt: udp.receivedAt, truncatedRetriedOverTcp: false };
      }
      // Truncated (RFC 7766 §5): ask the same server again over TCP for the full answer.
      onSend?.();
      const tcp = await tcpExchange(server, question, recurse, timeoutMs);
      return { response: tcp.packet, timeMs: tcp.receivedAt - sentAt, sentAt, receivedAt: tcp.receivedAt, truncatedRetriedOverTcp: true };
    },
    async close() {
      closed = true;
      const closing: Array<Promise<void>> = [];
      for (const pool of pools.values()) {
        for (const slot of pool.slots) {
          if (!slot) continue;
          for (const pending of [...slot.pending.values()]) pending.reject(new Error('DNS transport closed'));
          slot.backlog = [];
          closing.push(new Promise<void>((resolve) => slot.socket.close(() => resolve())));
        }
      }
      pools.clear();
      for (const socket of tcpSockets) socket.destroy();
      await Promise.all(closing);
    },
  };
}

/** A failed network leg reads as a timeout to callers: the question got no usable answer. */
function networkError(question: DnsQuestion, server: DnsServer, cause: Error): DnsTimeoutError {
  if (cause instanceof DnsTimeoutError) return cause;
  const error = new DnsTimeoutError(question.name, question.type, server);
  error.message = `DNS query ${question.type} ${question.name} to ${server.host}:${server.port} failed: ${cause.message}`;
  error.cause = cause;
  return error;
}

let shared: DnsTransport | undefined;

/** The transport every resolver uses unless given another. */
export function sharedDnsTransport(): DnsTransport {
  // The recursive servers (DNS_SERVERS) are few and fixed: sockets connected to each.
  shared ??= createDnsTransport({ connectToServers: true });
  return shared;
}

/** Closes the shared transport (at shutdown); the next sharedDnsTransport() opens a new one. */
export async function closeSharedDnsTransport(): Promise<void> {
  const transport = shared;
  shared = undefined;
  await transport?.close();
}
