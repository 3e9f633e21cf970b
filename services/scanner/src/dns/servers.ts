import dns from 'node:dns';
import net from 'node:net';
import type { DnsServer } from './types.js';

const DNS_PORT = 53;

/**
 * Parses `DNS_SERVERS`: comma-separated `host[:port]` where host is an IP address, IPv6 either bare
 * (`::1`, port 53) or bracketed (`[::1]:5353`). An empty value means the system's resolvers
 * (`dns.getServers()`, which uses the same notation). Throws naming the bad entry.
 */
export function parseDnsServers(value: string | undefined, systemServers: () => string[] = () => dns.getServers()): DnsServer[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) {
    const system = systemServers();
    if (system.length === 0) throw new Error('DNS_SERVERS is empty and the system has no DNS servers configured');
    return system.map(parseDnsServer);
  }
  return entries.map(parseDnsServer);
}

/** One `host[:port]` entry. */
export function parseDnsServer(entry: string): DnsServer {
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
  } else if (entry.indexOf(':') !== entry.lastIndexOf(':')) {
    host = entry; // bare IPv6: several colons and no brackets, so no port
  } else {
    const [hostPart, port] = entry.split(':');
    host = hostPart ?? '';
    portText = port;
  }
  // Zone ids (fe80::1%eth0) are kept: dgram and net accept them.
  if (net.isIP(host.split('%')[0] ?? '') === 0) {
    throw new Error(`DNS_SERVERS: "${entry}" is not an IP address with an optional port`);
  }
  let port = DNS_PORT;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`DNS_SERVERS: "${entry}" has an invalid port`);
    }
  }
  return { host, port };
}
