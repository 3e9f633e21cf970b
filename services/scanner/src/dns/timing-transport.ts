import { createDnsTransport, type DnsTransport } from './dns-transport.js';

/**
 * The transport of timing probes (questions asked with `{ timing: true }`: the DNS performance
 * check's SOA to each name server): one UDP socket per address family of its own, apart from the
 * shared pool.
 *
 * On the shared sockets a busy scanner has hundreds of answers waiting in the kernel's receive
 * buffer, and libuv reads 32 per socket per turn of the event loop, so an answer can sit there for
 * several turns: time the server never spent, which the event-loop lag does not show either. On
 * this socket only the timing gate's probes (16 at most, src/timing/timing-gate.ts) wait, so an
 * answer is read in the first turn after it arrives, and the loop lag bounds the error.
 */
let shared: DnsTransport | undefined;

export function sharedTimingTransport(): DnsTransport {
  shared ??= createDnsTransport({ socketsPerFamily: 1 });
  return shared;
}

/** Closes the timing transport (at shutdown); the next sharedTimingTransport() opens a new one. */
export async function closeSharedTimingTransport(): Promise<void> {
  const transport = shared;
  shared = undefined;
  await transport?.close();
}
