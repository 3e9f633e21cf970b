import net from 'node:net';
import { checkDetailsByType } from '@sendwell/contracts';
import {
  createTestCa,
  issueCert,
  selfSignedCert,
  startDnsServer,
  startTlsServer,
  validity,
  type CertOptions,
  type TestCa,
  type TestDnsServer,
  type TestTlsServer,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sslCertificateCheck } from '../../src/checks/ssl-certificate/ssl-certificate.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/** The SSL check against real TLS servers on loopback with certificates generated at test time. */

let dns: TestDnsServer;
let ca: TestCa;
type Pair = { cert: string; key: string };
/** Every certificate the tests use, generated up front and in parallel (RSA key generation is the slow part). */
let certs: Record<
  'valid' | 'days10' | 'days20' | 'days40' | 'expired' | 'notYet' | 'selfSigned' | 'otherHost' | 'apexOnly' | 'untrusted' | 'wwwOnly',
  Pair
>;
const servers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  const [testCa, otherCa] = await Promise.all([createTestCa(), createTestCa({ commonName: 'Unknown CA' })]);
  ca = testCa;
  const entries = await Promise.all(
    Object.entries({
      valid: caCert(),
      days10: caCert(validity.expiringInDays(10)),
      days20: caCert(validity.expiringInDays(20)),
      days40: caCert(validity.expiringInDays(40)),
      expired: caCert(validity.expiredDaysAgo(3)),
      notYet: caCert(validity.notYetValidForDays(2)),
      selfSigned: selfSignedCert({ hostnames: ['site.test', 'www.site.test'] }),
      otherHost: issueCert(ca, { hostnames: ['other.test'] }),
      apexOnly: issueCert(ca, { hostnames: ['site.test'] }),
      untrusted: issueCert(otherCa, { hostnames: ['site.test', 'www.site.test'] }),
      wwwOnly: issueCert(ca, { hostnames: ['www.wwwonly.test'] }),
    }).map(async ([name, pending]) => [name, await pending] as const),
  );
  certs = Object.fromEntries(entries) as typeof certs;
  dns = await startDnsServer({
    records: {
      'site.test': { A: ['127.0.0.1'] },
      'www.site.test': { A: ['127.0.0.1'] },
      'wwwonly.test': { MX: [{ priority: 10, exchange: 'mx.wwwonly.test' }] },
      'www.wwwonly.test': { A: ['127.0.0.1'] },
      'nohost.test': { TXT: ['v=spf1 -all'] },
      'private.test': { A: ['10.0.0.5', '192.168.1.1'] },
      'www.private.test': { A: ['127.0.0.1'] },
      'mixed.test': { A: ['169.254.169.254', '127.0.0.1'] },
    },
    behaviours: { 'dnsdown.test': 'timeout' },
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await dns.close();
});

async function serve(cert: { cert: string; key: string }, sni?: Record<string, { cert: string; key: string }>): Promise<TestTlsServer> {
  const server = await startTlsServer({ ...cert, ...(sni ? { sni } : {}) });
  servers.push(server);
  return server;
}

function caCert(options: Partial<CertOptions> = {}) {
  return issueCert(ca, { hostnames: ['site.test', 'www.site.test'], ...options });
}

async function scan(domain: string, port: number, timeoutMs = 1_000, allowLoopback = true): Promise<CheckResult> {
  const result = await sslCertificateCheck(checkContext(domain, dns, { dnsTimeoutMs: 300, config: { tlsPort: port, tlsExtraCa: ca.cert, timeoutMs, outbound: { allowLoopback } } }));
  expect(() => checkDetailsByType.ssl_certificate.parse(result.details)).not.toThrow();
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((f) => f.code);
type Host = { host: string; reachable: boolean; authorized: boolean; hostnameMatches: boolean | null; daysRemaining: number | null };
const hosts = (result: CheckResult) => result.details['hosts'] as Host[];

describe('sslCertificateCheck', () => {
  it('is valid for a trusted, current certificate on the domain and www, sent with SNI', async () => {
    const server = await serve(certs.valid);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.details['issuer']).toBe('Sendwell Test CA');
    expect(result.details['subject']).toBe('site.test');
    expect(result.details['altNames']).toEqual(['site.test', 'www.site.test']);
    expect(result.details['daysRemaining']).toBe(89);
    expect(result.details['authorized']).toBe(true);
    expect(result.details['protocol']).toBe('TLSv1.3');
    expect(result.details['keyType']).toBe('RSA');
    expect(result.details['keyBits']).toBe(2048);
    expect(String(result.details['expiresAt'])).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(result.value).toMatch(/^Sendwell Test CA, expires \d{4}-\d\d-\d\d$/);
    expect(result.message).toBe('Valid certificate from Sendwell Test CA, expires in 89 days.');
    expect(result.recommendation).toBeNull();
    expect(hosts(result).map((h) => [h.host, h.reachable, h.authorized, h.hostnameMatches])).toEqual([
      ['site.test', true, true, true],
      ['www.site.test', true, true, true],
    ]);
    expect([...server.serverNames].sort()).toEqual(['site.test', 'www.site.test']);
  });

  it.each([
    [10, 'warning', 'days10'],
    [20, 'warning', 'days20'],
    [40, 'valid', 'days40'],
  ] as const)('expiring in %i days is %s', async (days, status, cert) => {
    const server = await serve(certs[cert]);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe(status);
    expect(result.details['daysRemaining']).toBe(days - 1);
    if (status === 'warning') {
      expect(codes(result)).toEqual(['SSL_EXPIRING_SOON', 'SSL_EXPIRING_SOON']);
      expect(result.message).toBe(`site.test: the certificate expires in ${days - 1} days (${String(result.details['expiresAt'])}).`);
      expect(result.details.findings[0]).toMatchObject({ severity: 'warning', rfc: 'RFC 5280 §4.1.2.5' });
    } else {
      expect(codes(result)).toEqual([]);
    }
  });

  it('is an error when the certificate has expired', async () => {
    const server = await serve(certs.expired);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_EXPIRED', 'SSL_EXPIRED']);
    expect(result.message).toMatch(/^site\.test: the certificate expired on .* \(4 days ago\)\.$/);
    expect(result.details['authorized']).toBe(false);
    expect(result.recommendation).toMatch(/^Renew the certificate now/);
  });

  it('is an error when the certificate is not valid yet', async () => {
    const server = await serve(certs.notYet);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_NOT_YET_VALID', 'SSL_NOT_YET_VALID']);
  });

  it('is an error for a self-signed certificate', async () => {
    const server = await serve(certs.selfSigned);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_SELF_SIGNED', 'SSL_SELF_SIGNED']);
    expect(result.message).toBe(
      'site.test: the certificate is not trusted: the certificate is self-signed, so no browser or mail client trusts it (DEPTH_ZERO_SELF_SIGNED_CERT).',
    );
  });

  it('is an error when the certificate is for another host, per host', async () => {
    const wrong = await serve(certs.otherHost);
    const result = await scan('site.test', wrong.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_HOSTNAME_MISMATCH', 'SSL_HOSTNAME_MISMATCH']);
    expect(result.message).toBe('site.test: the certificate is issued for other.test, not for site.test.');
    expect(result.details['authorized']).toBe(false);

    // Only www is wrong: the apex certificate is fine, www's (by SNI) is not.
    const server = await serve(certs.apexOnly);
    const partial = await scan('site.test', server.port);
    expect(partial.status).toBe('error');
    expect(partial.details.findings).toEqual([
      expect.objectContaining({ code: 'SSL_HOSTNAME_MISMATCH', host: 'www.site.test', rfc: 'RFC 6125 §6' }),
    ]);
    expect(hosts(partial).map((h) => h.hostnameMatches)).toEqual([true, false]);
    // Node's own identity verdict on a trusted chain (run on the leaf alone, see convertLeafOnce).
    expect(hosts(partial).map((h) => [h.authorized, (h as Host & { authorizationError: string | null }).authorizationError])).toEqual([
      [true, null],
      [false, 'ERR_TLS_CERT_ALTNAME_INVALID'],
    ]);
  });

  it('is an error when nothing listens, and closes a silent connection at the timeout', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await scan('site.test', port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_UNREACHABLE', 'SSL_UNREACHABLE']);
    expect(result.message).toBe(`site.test: no TLS connection on port ${port} at 127.0.0.1 (connection refused).`);
    // The socket error's code is kept, its raw text (which names our own address and port) is not.
    expect(hosts(result).map((h) => [(h as Host & { errorCode: string }).errorCode, (h as Host & { error: string }).error])).toEqual([
      ['ECONNREFUSED', 'connection refused'],
      ['ECONNREFUSED', 'connection refused'],
    ]);
    expect(JSON.stringify(result)).not.toContain(`127.0.0.1:${port}`);

    // A server that accepts TCP and never answers the ClientHello.
    const sockets = new Set<net.Socket>();
    let closedByClient = 0;
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume();
      socket.on('close', () => closedByClient++);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () => {
        for (const socket of sockets) socket.destroy();
        return new Promise<void>((resolve) => silent.close(() => resolve()));
      },
    });
    const started = Date.now();
    const hung = await scan('site.test', (silent.address() as net.AddressInfo).port, 300);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(hung.status).toBe('error');
    expect(hung.message).toContain('no TLS handshake within 300 ms');
    // The check destroyed its sockets: the server sees them close.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sockets.size).toBe(2);
    expect(closedByClient).toBe(2);
  });

  it('reports private addresses and special-use names as findings and never connects to them', async () => {
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => listener.close(() => resolve())) });
    const port = (listener.address() as net.AddressInfo).port;

    const result = await scan('private.test', port, 1_000, false);
    expect(result.status).toBe('warning');
    expect(result.details.findings).toEqual([
      expect.objectContaining({ code: 'SSL_PRIVATE_ADDRESS', severity: 'warning', host: 'private.test', message: 'private.test: points at private addresses (private network), which the scanner does not connect to.' }),
      expect.objectContaining({ code: 'SSL_PRIVATE_ADDRESS', severity: 'warning', host: 'www.private.test', message: 'www.private.test: points at a private address (loopback), which the scanner does not connect to.' }),
    ]);
    expect(result.message).toBe('private.test: points at private addresses (private network), which the scanner does not connect to.');
    expect(hosts(result).map((h) => h.reachable)).toEqual([false, false]);

    const named = await scan('box.internal', port, 1_000, false);
    expect(named.details.findings.map((f) => f.message)).toEqual([
      'box.internal: points at a private address (special-use name .internal), which the scanner does not connect to.',
      'www.box.internal: points at a private address (special-use name .internal), which the scanner does not connect to.',
    ]);
    expect(connections).toBe(0);
  });

  it('skips the private addresses of a host and checks its public ones (loopback, for the tests)', async () => {
    const server = await serve(certs.valid);
    const started = Date.now();
    const result = await scan('mixed.test', server.port);
    // 169.254.169.254 is never dialled, so no timeout is waited for.
    expect(Date.now() - started).toBeLessThan(900);
    expect(hosts(result)[0]).toMatchObject({ host: 'mixed.test', address: '127.0.0.1', reachable: true });
    expect(result.details.findings[0]).toMatchObject({ code: 'SSL_PRIVATE_ADDRESS', message: 'mixed.test: points at a private address (link-local), which the scanner does not connect to.' });
  });

  it('is an error when the chain does not lead to a trusted root', async () => {
    const server = await serve(certs.untrusted);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_UNTRUSTED_CHAIN', 'SSL_UNTRUSTED_CHAIN']);
    expect(result.details['issuer']).toBe('Unknown CA');
    expect(result.message).toContain('(UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
  });

  it('is an error when the server only speaks TLS older than 1.2', async () => {
    const server = await startTlsServer({ ...certs.valid, minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1' });
    servers.push(server);
    const result = await scan('site.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SSL_WEAK_PROTOCOL', 'SSL_WEAK_PROTOCOL']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'error', rfc: 'RFC 8996 §2' });
  });

  it('is missing when neither the domain nor www has an address', async () => {
    const result = await scan('nohost.test', 443);
    expect(result.status).toBe('missing');
    expect(codes(result)).toEqual(['SSL_NO_HOST']);
    expect(result.message).toBe('nohost.test has no web host to check a certificate on.');
  });

  it("checks www's certificate when only www has an address", async () => {
    const server = await serve(certs.wwwOnly);
    const result = await scan('wwwonly.test', server.port);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['SSL_NO_APEX_HOST']);
    expect(result.details['subject']).toBe('www.wwwonly.test');
  });

  it('is unknown when the address lookups time out', async () => {
    const result = await scan('dnsdown.test', 443);
    expect(result.status).toBe('unknown');
    // Without the resolver's address, which is our own network's.
    expect(result.details['error']).toBe('DNS query A dnsdown.test timed out');
  });
});
