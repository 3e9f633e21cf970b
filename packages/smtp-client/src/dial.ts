import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { addressRefusal, describeSocketError, nameRefusal, type OutboundPolicy } from '@sendwell/server-kit';
import { SmtpSession, SmtpStepError } from './session.js';

/**
 * How an SMTP client reaches a mail host through the outbound guard (server-kit): the guard on the
 * host's name, its addresses (looked up by the caller's resolver), the guard on each address, then
 * the first vetted one, IPv4 first. The vetted IP itself is dialled (the name is only the SNI), so
 * DNS cannot answer differently in between; dialSmtp asks the guard again right before connecting.
 */

/** A target the outbound guard refused: a name or an address, and why in words ("loopback", "private network"). */
export interface RefusedAddress {
  address: string;
  reason: string;
}

/** The caller's A and AAAA lookup: the addresses (IPv4 first), and the failure's words when nothing came back. */
export type AddressLookup = (host: string) => Promise<{ addresses: string[]; error: string | null }>;

export type MailHostAddress =
  /** The name itself is refused (localhost, *.local, *.internal …): it is not looked up. */
  | { kind: 'refused-name'; refused: RefusedAddress }
  /** No address came back, and the lookup failed. */
  | { kind: 'lookup-failed'; error: string }
  /** The host has no address. */
  | { kind: 'no-address' }
  /** The address to dial (null when the guard refused every one) and the refused ones. */
  | { kind: 'vetted'; address: string | null; refused: RefusedAddress[] };

/** The address of `host` to dial, as described above. */
export async function pickMailHostAddress(host: string, lookup: AddressLookup, policy: OutboundPolicy): Promise<MailHostAddress> {
  const nameReason = nameRefusal(host);
  if (nameReason !== null) return { kind: 'refused-name', refused: { address: host, reason: nameReason } };
  const { addresses, error } = await lookup(host);
  if (addresses.length === 0) return error !== null ? { kind: 'lookup-failed', error } : { kind: 'no-address' };
  const allowed: string[] = [];
  const refused: RefusedAddress[] = [];
  for (const address of addresses) {
    const reason = addressRefusal(address, policy);
    if (reason === null) allowed.push(address);
    else refused.push({ address, reason });
  }
  return { kind: 'vetted', address: allowed.find((ip) => net.isIP(ip) === 4) ?? allowed[0] ?? null, refused };
}

export interface DialOptions {
  /** An IP address (a name would be resolved again by net, past the guard). */
  address: string;
  port: number;
  /** The outbound guard's policy; a refused address is never connected to. */
  outbound: OutboundPolicy;
  /** For the TCP connection. */
  timeoutMs: number;
}

/**
 * Opens a TCP connection to `address:port` unless the outbound guard refuses the address; resolves
 * with the session and the time (performance.now()) of the connect event. Fails with an SmtpStepError:
 * 'refused' by the guard, 'timeout', or 'socket' (in plain words: the raw text names the address).
 */
export function dialSmtp({ address, port, outbound, timeoutMs }: DialOptions): Promise<{ session: SmtpSession; connectedAt: number }> {
  const refusal = addressRefusal(address, outbound);
  if (refusal !== null) return Promise.reject(new SmtpStepError(`the mail server is on a private address (${refusal})`, 'refused'));
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const fail = (error: SmtpStepError): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new SmtpStepError(`no TCP connection within ${timeoutMs} ms`, 'timeout')), timeoutMs);
    socket.once('error', (error: NodeJS.ErrnoException) => fail(new SmtpStepError(describeSocketError(error), 'socket', error.code)));
    socket.once('connect', () => {
      const connectedAt = performance.now();
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve({ session: new SmtpSession(socket), connectedAt });
    });
  });
}
