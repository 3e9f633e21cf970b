import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { DnsTimeoutError, type DnsServer, type RecordType } from './types.js';

/**
 * The process-wide DNS transport: a small pool of UDP sockets shared by every resolver (one per
 * scan), with an id → pending-question map per socket, and a TCP connection per truncated answer.
 * A thousand concurrent scans therefore cost a handful of file descriptors, not one per query.
 *
 * Spoofing defences (RFC 5452 §9): random 16-bit ids from a CSPRNG, OS-chosen source ports (one per
 * pooled socket), and a response is only accepted from the queried address and port, with the id AND
 * the question (name, type, class) matching; anything else is dropped while the query keeps waiting.
 */

/** EDNS0 UDP payload size recommended by DNS Flag Day 2020: no IP fragmentation. */
export const EDNS_UDP_PAYLOAD_SIZE = 1232;
const SOCKETS_PER_FAMILY = 4;
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
const MAX_TCP_MESSAGE = 65_535;

export interface DnsQuestion {
  /** Lower-case, without a trailing dot. */
  name: string;
  type: RecordType;
}

export interface ExchangeOptions {
  recurse: boolean;
  timeoutMs: number;
  /** Called for every question put on the network (the UDP query and a TCP retry). */
  onSend?: () => void;
}

export interface DnsExchange {
  response: DecodedPacket;
  /** Round trip of the question, including the TCP retry when the UDP answer was truncated. */
  timeMs: number;
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
  /** UDP sockets per address family; each has its own source port and 65,536 ids. Default 4. */
  socketsPerFamily?: number;
}

interface Pending {
  server: DnsServer;
  address: string;
  question: DnsQuestion;
  resolve(response: DecodedPacket): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface UdpSlot {
  socket: dgram.Socket;
  pending: Map<number, Pending>;
}

export function encodeQuery(id: number, question: DnsQuestion, recurse: boolean): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: recurse ? dnsPacket.RECURSION_DESIRED : 0,
    questions: [{ name: question.name, type: question.type, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_UDP_PAYLOAD_SIZE,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  });
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
  const socketsPerFamily = Math.max(1, options.socketsPerFamily ?? SOCKETS_PER_FAMILY);
  const pools: Record<'udp4' | 'udp6', Array<UdpSlot | undefined>> = { udp4: [], udp6: [] };
  const cursor = { udp4: 0, udp6: 0 };
  const tcpSockets = new Set<net.Socket>();
  let inFlight = 0;
  let closed = false;

  function openSlot(family: 'udp4' | 'udp6', index: number): UdpSlot {
    const socket = dgram.createSocket(family);
    const slot: UdpSlot = { socket, pending: new Map() };
    // Unref'd: an idle transport never keeps the process alive; pending timers do while needed.
    socket.unref();
    socket.on('listening', () => {
      try {
        socket.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
      } catch {
        // The OS cap (net.core.rmem_max) wins; the default buffer still works at lower load.
      }
    });
    socket.on('message', (message, remote) => {
      if (message.length < 12) return;
      const pending = slot.pending.get(message.readUInt16BE(0));
      if (!pending || remote.port !== pending.server.port || remote.address !== pending.address) return;
      const packet = decode(message);
      if (!packet || !answersQuestion(packet, pending.question)) return;
      slot.pending.delete(message.readUInt16BE(0));
      pending.resolve(packet);
    });
    socket.on('error', (error) => {
      // A socket-level failure: fail its questions (each attempt may retry) and replace the socket.
      if (pools[family][index] === slot) pools[family][index] = undefined;
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
      socket.close();
    });
    pools[family][index] = slot;
    return slot;
  }

  function pickSlot(family: 'udp4' | 'udp6'): UdpSlot {
    const index = cursor[family];
    cursor[family] = (index + 1) % socketsPerFamily;
    return pools[family][index] ?? openSlot(family, index);
  }

  function freeId(slot: UdpSlot): number {
    for (;;) {
      const id = randomInt(0, 65_536);
      if (!slot.pending.has(id)) return id;
    }
  }

  function udpExchange(server: DnsServer, question: DnsQuestion, recurse: boolean, timeoutMs: number): Promise<DecodedPacket> {
    const family = net.isIPv6(server.host.split('%')[0] ?? '') ? 'udp6' : 'udp4';
    let slot = pickSlot(family);
    if (slot.pending.size > 60_000) slot = pickSlot(family);
    const id = freeId(slot);
    return new Promise<DecodedPacket>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        if (slot.pending.get(id) === pending) slot.pending.delete(id);
        inFlight--;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new DnsTimeoutError(question.name, question.type, server));
      }, timeoutMs);
      const pending: Pending = {
        server,
        address: canonicalAddress(server.host),
        question,
        timer,
        resolve: (packet) => {
          finish();
          resolve(packet);
        },
        reject: (error) => {
          finish();
          reject(networkError(question, server, error));
        },
      };
      inFlight++;
      slot.pending.set(id, pending);
      slot.socket.send(encodeQuery(id, question, recurse), server.port, server.host, (error) => {
        if (error && slot.pending.get(id) === pending) pending.reject(error);
      });
    });
  }

  /** RFC 1035 §4.2.2 framing: a two-byte length before each message. */
  function tcpExchange(server: DnsServer, question: DnsQuestion, recurse: boolean, timeoutMs: number): Promise<DecodedPacket> {
    const id = randomInt(0, 65_536);
    const query = encodeQuery(id, question, recurse);
    const framed = Buffer.alloc(2 + query.length);
    framed.writeUInt16BE(query.length, 0);
    query.copy(framed, 2);
    return new Promise<DecodedPacket>((resolve, reject) => {
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
            finish(() => resolve(packet));
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
      const started = performance.now();
      onSend?.();
      const udpResponse = await udpExchange(server, question, recurse, timeoutMs);
      if (!udpResponse.flag_tc) {
        return { response: udpResponse, timeMs: performance.now() - started, truncatedRetriedOverTcp: false };
      }
      // Truncated (RFC 7766 §5): ask the same server again over TCP for the full answer.
      onSend?.();
      const tcpResponse = await tcpExchange(server, question, recurse, timeoutMs);
      return { response: tcpResponse, timeMs: performance.now() - started, truncatedRetriedOverTcp: true };
    },
    async close() {
      closed = true;
      const closing: Array<Promise<void>> = [];
      for (const family of ['udp4', 'udp6'] as const) {
        for (const slot of pools[family]) {
          if (!slot) continue;
          for (const pending of [...slot.pending.values()]) pending.reject(new Error('DNS transport closed'));
          closing.push(new Promise<void>((resolve) => slot.socket.close(() => resolve())));
        }
        pools[family] = [];
      }
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
  shared ??= createDnsTransport();
  return shared;
}

/** Closes the shared transport (at shutdown); the next sharedDnsTransport() opens a new one. */
export async function closeSharedDnsTransport(): Promise<void> {
  const transport = shared;
  shared = undefined;
  await transport?.close();
}
