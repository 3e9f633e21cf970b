import { describe, expect, it } from 'vitest';
import { parseDnsServer, parseDnsServers } from '../../src/dns/servers.js';

describe('parseDnsServers', () => {
  it('parses IPv4, IPv4 with port and bracketed IPv6 with port', () => {
    expect(parseDnsServers('1.1.1.1,127.0.0.1:5300,[::1]:53')).toEqual([
      { host: '1.1.1.1', port: 53 },
      { host: '127.0.0.1', port: 5300 },
      { host: '::1', port: 53 },
    ]);
  });

  it('reads bare IPv6 addresses as port 53 and ignores blanks and spaces', () => {
    expect(parseDnsServers(' 2606:4700:4700::1111 , ,[2001:db8::1] ')).toEqual([
      { host: '2606:4700:4700::1111', port: 53 },
      { host: '2001:db8::1', port: 53 },
    ]);
  });

  it("falls back to the system's servers when empty, in dns.getServers() notation", () => {
    expect(parseDnsServers('', () => ['10.0.0.2', '[2001:db8::53]:1053'])).toEqual([
      { host: '10.0.0.2', port: 53 },
      { host: '2001:db8::53', port: 1053 },
    ]);
    expect(parseDnsServers(undefined, () => ['9.9.9.9'])).toEqual([{ host: '9.9.9.9', port: 53 }]);
    expect(() => parseDnsServers(' ', () => [])).toThrow(/no DNS servers/);
  });

  it('rejects host names, bad ports and garbage, naming the entry', () => {
    expect(() => parseDnsServers('dns.google')).toThrow('DNS_SERVERS: "dns.google" is not an IP address');
    expect(() => parseDnsServers('1.1.1.1:0')).toThrow('"1.1.1.1:0" has an invalid port');
    expect(() => parseDnsServers('1.1.1.1:70000')).toThrow(/invalid port/);
    expect(() => parseDnsServers('1.1.1.1:abc')).toThrow(/invalid port/);
    expect(() => parseDnsServers('[::1]:')).toThrow(/invalid port/);
    expect(() => parseDnsServer('1.1.1')).toThrow(/not an IP address/);
  });
});
