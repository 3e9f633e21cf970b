import net from 'node:net';
import { checkDetailsByType, type SmtpHost } from '@sendwell/contracts';
import {
  createTestCa,
  freePort,
  issueCert,
  selfSignedCert,
  startDnsServer,
  startMxServer,
  validity,
  type MxServerOptions,
  type TestCa,
  type TestCertificate,
  type TestDnsServer,
  type TestMxServer,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpCheck, smtpCheck } from '../../src/checks/smtp/smtp.check.js';
import type { Check, CheckResult } from '../../src/checks/types.js';
import { checkContext, TEST_HELO as HELO } from './harness.js';

/** The SMTP transport check against real SMTP servers (smtp-server, STARTTLS) on loopback and the fixture DNS server. */

/** Generous: a CI run may share the CPU, and RSA handshakes are not free. */
const TIMEOUT_MS = 4_000;

let dns: TestDnsServer;
let ca: TestCa;
let certs: Record<'good' | 'partial' | 'expired' | 'untrusted' | 'otherName' | 'selfSigned' | 'old' | 'slow' | 'banner', TestCertificate>;
const servers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  const [testCa, otherCa] = await Promise.all([createTestCa(), createTestCa({ commonName: 'Unknown CA' })]);
  ca = testCa;
  const entries = await Promise.all(
    Object.entries({
      good: issueCert(ca, { hostnames: ['mx.good.test'] }),
      partial: issueCert(ca, { hostnames: ['mx1.partial.test'] }),
      expired: issueCert(ca, { hostnames: ['mx.expired.test'], ...validity.expiredDaysAgo(3) }),
      untrusted: issueCert(otherCa, { hostnames: ['mx.untrusted.test'] }),
      otherName: issueCert(ca, { hostnames: ['mail.elsewhere.test'] }),
      selfSigned: selfSignedCert({ hostnames: ['mx.selfsigned.test'] }),
      old: issueCert(ca, { hostnames: ['mx.old.test'] }),
      slow: issueCert(ca, { hostnames: ['mx.slow.test'] }),
      banner: issueCert(ca, { hostnames: ['mx.banner.test'] }),
    }).map(async ([name, pending]) => [name, await pending] as const),
  );
  certs = Object.fromEntries(entries) as typeof certs;
  const mxAt = (host: string) => ({ MX: [{ priority: 10, exchange: host }] });
  dns = await startDnsServer({
    records: {
      'good.test': mxAt('mx.good.test'),
      'mx.good.test': { A: ['127.0.0.1'] },
      'plain.test': mxAt('mx.plain.test'),
      'mx.plain.test': { A: ['127.0.0.1'] },
      'expired.test': mxAt('mx.expired.test'),
      'mx.expired.test': { A: ['127.0.0.1'] },
      'untrusted.test': mxAt('mx.untrusted.test'),
      'mx.untrusted.test': { A: ['127.0.0.1'] },
      'selfsigned.test': mxAt('mx.selfsigned.test'),
      'mx.selfsigned.test': { A: ['127.0.0.1'] },
      'othername.test': mxAt('mx.othername.test'),
      'mx.othername.test': { A: ['127.0.0.1'] },
      'old.test': mxAt('mx.old.test'),
      'mx.old.test': { A: ['127.0.0.1'] },
      'slow.test': mxAt('mx.slow.test'),
      'mx.slow.test': { A: ['127.0.0.1'] },
      'closed.test': { MX: [{ priority: 10, exchange: 'mx1.closed.test' }, { priority: 20, exchange: 'mx2.closed.test' }] },
      'mx1.closed.test': { A: ['127.0.0.1'] },
      'mx2.closed.test': { A: ['127.0.0.2'] },
      // The backup MX at 127.0.0.2 has nothing listening on the port (the fixture binds 127.0.0.1 only).
      'partial.test': { MX: [{ priority: 20, exchange: 'mx2.partial.test' }, { priority: 10, exchange: 'mx1.partial.test' }] },
      'mx1.partial.test': { A: ['127.0.0.1'] },
      'mx2.partial.test': { A: ['127.0.0.2'] },
      'banner.test': mxAt('mx.banner.test'),
      'mx.banner.test': { A: ['127.0.0.1'] },
      'lb.banner.test': { A: ['127.0.0.9'] },
      'private.test': mxAt('mx.private.test'),
      'mx.private.test': { A: ['127.0.0.1'] },
      'v6first.test': mxAt('mx.v6first.test'),
      'mx.v6first.test': { AAAA: ['::1'], A: ['127.0.0.1'] },
      'raw.test': mxAt('mx.raw.test'),
      'mx.raw.test': { A: ['127.0.0.1'] },
      'dangling.test': { MX: [{ priority: 10, exchange: 'mx.dangling.test' }] },
      'nomx.test': { TXT: ['v=spf1 -all'] },
      'nullmx.test': { MX: [{ priority: 0, exchange: '.' }] },
      'dnsdown-mx.test': mxAt('mx.dnsdown.test'),
    },
    behaviours: { 'dnsdown.test': 'timeout', 'mx.dnsdown.test': 'timeout' },
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await dns.close();
});

async function mx(options: MxServerOptions): Promise<TestMxServer> {
  const server = await startMxServer(options);
  servers.push(server);
  return server;
}

async function scan(domain: string, port: number, options: { allowLoopback?: boolean; check?: Check<'smtp'>; timeoutMs?: number } = {}): Promise<CheckResult> {
  const result = await (options.check ?? smtpCheck)(
    checkContext(domain, dns, { config: { tlsExtraCa: ca.cert, smtpPort: port, timeoutMs: options.timeoutMs ?? TIMEOUT_MS, outbound: { allowLoopback: options.allowLoopback ?? true } } }),
  );
  expect(() => checkDetailsByType.smtp.parse(result.details)).not.toThrow();
  expect(result.type).toBe('smtp');
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((f) => `${f.code}:${f.severity}`);
const hosts = (result: CheckResult) => result.details['hosts'] as SmtpHost[];

describe('smtpCheck', () => {
  it('is valid for STARTTLS with a trusted certificate for the MX name; introduces itself with heloName', async () => {
    const server = await mx({ certificate: certs.good, name: 'mx.good.test' });
    const result = await scan('good.test', server.port);
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.value).toBe('STARTTLS on 1 of 1 MX host, TLSv1.3');
    expect(result.message).toBe('mx.good.test offers STARTTLS with a trusted certificate for its name (TLSv1.3).');
    expect(result.recommendation).toBeNull();
    const [host] = hosts(result);
    expect(host).toMatchObject({
      exchange: 'mx.good.test',
      preference: 10,
      ip: '127.0.0.1',
      banner: '220 mx.good.test ESMTP',
      greetingName: 'mx.good.test',
      greetingNameMatches: true,
      starttls: true,
      tlsVersion: 'TLSv1.3',
      error: null,
      certificate: { subject: 'mx.good.test', issuer: 'Sendwell Test CA', trusted: true, nameMatches: true, daysRemaining: 89, authorizationError: null },
    });
    expect(host?.bannerMs).toBeGreaterThanOrEqual(0);
    expect(host?.bannerMs).toBeLessThan(TIMEOUT_MS);
    // Extensions after STARTTLS: STARTTLS itself is no longer offered.
    expect(host?.extensions).toContain('PIPELINING');
    expect(host?.extensions).not.toContain('STARTTLS');
    // EHLO before and after STARTTLS (RFC 3207 §4.2), both with the configured name.
    expect(server.ehloNames).toEqual([HELO, HELO]);
    expect(server.tlsSessions).toBe(1);
  });

  it('is an error when the MX host does not offer STARTTLS (mail travels in plaintext)', async () => {
    const server = await mx({ name: 'mx.plain.test' });
    const result = await scan('plain.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SMTP_STARTTLS_MISSING:error']);
    expect(result.message).toBe('mx.plain.test: the server does not offer STARTTLS, so mail to it travels in plaintext.');
    expect(result.details.findings[0]?.rfc).toBe('RFC 3207 §4');
    expect(result.recommendation).toMatch(/^Enable STARTTLS on mx\.plain\.test/);
    expect(result.value).toBe('STARTTLS on 0 of 1 MX host');
    expect(hosts(result)[0]).toMatchObject({ starttls: false, tlsVersion: null, certificate: null });
    expect(server.ehloNames).toEqual([HELO]);
    expect(server.tlsSessions).toBe(0);
  });

  it('is an error for an expired certificate', async () => {
    const server = await mx({ certificate: certs.expired, name: 'mx.expired.test' });
    const result = await scan('expired.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SMTP_CERT_EXPIRED:error']);
    expect(result.message).toMatch(/^mx\.expired\.test: the STARTTLS certificate expired on \d{4}-\d\d-\d\d \(3 days ago\)\.$/);
    expect(hosts(result)[0]?.certificate).toMatchObject({ trusted: true, nameMatches: true, daysRemaining: -3 });
  });

  it('is a warning for a certificate from an unknown CA: encrypted, but refused by MTA-STS senders', async () => {
    const server = await mx({ certificate: certs.untrusted, name: 'mx.untrusted.test' });
    const result = await scan('untrusted.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_CERT_UNTRUSTED:warning']);
    expect(result.message).toContain('mx.untrusted.test: the STARTTLS certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(result.message).toContain('senders that enforce MTA-STS refuse to deliver');
    expect(result.details.findings[0]?.rfc).toBe('RFC 8461 §4.2');
    expect(hosts(result)[0]?.certificate).toMatchObject({ trusted: false, nameMatches: true, issuer: 'Unknown CA' });
    expect(hosts(result)[0]?.tlsVersion).toBe('TLSv1.3');
  });

  it('is a warning for a self-signed certificate', async () => {
    const server = await mx({ certificate: certs.selfSigned, name: 'mx.selfsigned.test' });
    const result = await scan('selfsigned.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_CERT_UNTRUSTED:warning']);
    expect(hosts(result)[0]?.certificate?.['authorizationError']).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('is a warning for a certificate issued for another name', async () => {
    const server = await mx({ certificate: certs.otherName, name: 'mx.othername.test' });
    const result = await scan('othername.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_CERT_NAME_MISMATCH:warning']);
    expect(result.message).toContain('issued for mail.elsewhere.test, not for mx.othername.test');
    expect(result.recommendation).toBe('Issue a certificate whose subjectAltName includes mx.othername.test.');
    expect(hosts(result)[0]?.certificate).toMatchObject({ trusted: true, nameMatches: false });
  });

  it('is a warning when STARTTLS negotiates TLS 1.1', async () => {
    const server = await mx({ certificate: certs.old, name: 'mx.old.test', minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' });
    const result = await scan('old.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_TLS_OLD_VERSION:warning']);
    expect(result.details.findings[0]?.rfc).toBe('RFC 8996 §3');
    expect(result.value).toBe('STARTTLS on 1 of 1 MX host, TLSv1.1');
  });

  it('is a warning for a slow greeting, and measures it from the connection', async () => {
    const server = await mx({ certificate: certs.slow, name: 'mx.slow.test', greetingDelayMs: 700 });
    const result = await scan('slow.test', server.port, { check: createSmtpCheck({ slowBannerMs: 300 }) });
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_BANNER_SLOW:warning']);
    expect(result.message).toMatch(/^mx\.slow\.test: the 220 greeting took 0\.[7-9] s\./);
    expect(hosts(result)[0]?.bannerMs).toBeGreaterThanOrEqual(690);
    expect(hosts(result)[0]?.starttls).toBe(true);
  });

  it('is unknown when port 25 is closed on every MX host: never blames the domain for our network', async () => {
    const port = await freePort();
    const result = await scan('closed.test', port);
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['SMTP_UNREACHABLE:info', 'SMTP_UNREACHABLE:info']);
    expect(result.message).toBe(`No MX host of closed.test answered on port ${port}; many networks block outbound port ${port}, so this may be the scanner's network rather than the domain.`);
    expect(result.value).toBeNull();
    expect(result.details.findings[0]?.message).toContain('connection refused');
    expect(hosts(result).map((h) => [h.exchange, h.ip, h.error])).toEqual([
      ['mx1.closed.test', '127.0.0.1', 'connection refused'],
      ['mx2.closed.test', '127.0.0.2', 'connection refused'],
    ]);
  });

  it('is a warning when only some MX hosts are unreachable; hosts come lowest preference first', async () => {
    const server = await mx({ certificate: certs.partial, name: 'mx1.partial.test' });
    const result = await scan('partial.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_UNREACHABLE:warning']);
    expect(result.message).toContain('mx2.partial.test: no SMTP service on port');
    expect(hosts(result).map((h) => [h.exchange, h.preference, h.starttls])).toEqual([
      ['mx1.partial.test', 10, true],
      ['mx2.partial.test', 20, false],
    ]);
  });

  it('reports a greeting name whose addresses do not include the connected address (info), with the names', async () => {
    const server = await mx({ certificate: certs.banner, name: 'lb.banner.test' });
    const result = await scan('banner.test', server.port);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['SMTP_BANNER_NAME_MISMATCH:info']);
    expect(result.details.findings[0]?.message).toBe(
      'mx.banner.test: the greeting names lb.banner.test, whose addresses (127.0.0.9) do not include 127.0.0.1, the address of mx.banner.test.',
    );
    expect(result.details.findings[0]?.rfc).toBe('RFC 5321 §4.2');
    expect(hosts(result)[0]).toMatchObject({ greetingName: 'lb.banner.test', greetingNameMatches: false });
  });

  it('warns about a greeting name that resolves nowhere', async () => {
    const server = await mx({ certificate: certs.banner, name: 'ghost.banner.test' });
    const result = await scan('banner.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_BANNER_NAME_MISMATCH:warning']);
    expect(result.message).toBe('mx.banner.test: the greeting names ghost.banner.test, which has no A or AAAA record (the MX host is mx.banner.test, at 127.0.0.1).');
  });

  it('accepts a greeting that gives the connected address as a literal', async () => {
    const server = await mx({ certificate: certs.banner, name: '[127.0.0.1]' });
    const result = await scan('banner.test', server.port);
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(hosts(result)[0]).toMatchObject({ greetingName: '[127.0.0.1]', greetingNameMatches: true });
  });

  it('refuses a private MX address without connecting when loopback is not allowed', async () => {
    const server = await mx({ certificate: certs.good, name: 'mx.private.test' });
    const result = await scan('private.test', server.port, { allowLoopback: false });
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['SMTP_PRIVATE_ADDRESS:warning']);
    expect(result.message).toBe(
      'mx.private.test: points at a private address (loopback), which the scanner does not connect to. Other senders cannot deliver to such an address either.',
    );
    expect(result.details.findings[0]?.rfc).toBe('RFC 6890');
    expect(hosts(result)[0]).toMatchObject({ ip: null, refused: ['127.0.0.1'] });
    expect(server.connections).toBe(0);
  });

  it('connects to the IPv4 address first', async () => {
    const server = await mx({ certificate: certs.good, name: 'mx.good.test' });
    const result = await scan('v6first.test', server.port);
    expect(hosts(result)[0]?.ip).toBe('127.0.0.1');
    expect(server.connections).toBe(1);
  });

  it('reads multi-line replies from a hand-written server', async () => {
    const seen: string[] = [];
    const raw = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('220-mx.raw.test ESMTP ready\r\n220-second line\r\n220 last line\r\n');
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        let newline = buffer.indexOf('\r\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 2);
          seen.push(line);
          if (line.startsWith('EHLO')) socket.write('250-mx.raw.test hello\r\n250-SIZE 1000\r\n250 8BITMIME\r\n');
          else if (line === 'QUIT') socket.end('221 bye\r\n');
          newline = buffer.indexOf('\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => raw.close(() => resolve())) });
    const result = await scan('raw.test', (raw.address() as net.AddressInfo).port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SMTP_STARTTLS_MISSING:error']);
    expect(hosts(result)[0]).toMatchObject({ banner: '220 mx.raw.test ESMTP ready', greetingName: 'mx.raw.test', greetingNameMatches: true, extensions: ['SIZE 1000', '8BITMIME'] });
    expect(seen).toEqual([`EHLO ${HELO}`, 'QUIT']);
  });

  it("never reports a slow greeting that the scanner's own blocked event loop explains", async () => {
    dns.setName('busyloop.test', { MX: [{ priority: 10, exchange: 'mx.busyloop.test' }] });
    dns.setName('mx.busyloop.test', { A: ['127.0.0.1'] });
    const raw = net.createServer((socket) => {
      socket.on('error', () => undefined);
      // Once both ends have seen the connection, the whole process (the scanner's loop) stalls for
      // 500 ms; the server itself greets 50 ms after that.
      setTimeout(() => {
        const until = performance.now() + 500;
        while (performance.now() < until) {
          // busy
        }
        setTimeout(() => socket.write('220 mx.busyloop.test ESMTP\r\n'), 50);
      }, 20);
      socket.on('data', (chunk) => {
        const text = chunk.toString('latin1');
        if (text.startsWith('EHLO')) socket.write('250 mx.busyloop.test hello\r\n');
        else if (text.startsWith('QUIT')) socket.end('221 bye\r\n');
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise<void>((resolve) => raw.close(() => resolve())) });
    const result = await scan('busyloop.test', (raw.address() as net.AddressInfo).port, { check: createSmtpCheck({ slowBannerMs: 300 }) });
    expect(codes(result)).toEqual(['SMTP_TIMING_UNRELIABLE:info', 'SMTP_STARTTLS_MISSING:error']);
    expect(result.details.findings[0]?.message).toMatch(/^mx\.busyloop\.test: the 220 greeting arrived after 0\.[5-9] s, but the scanner itself was too busy for 0\.[4-6] s of it, so the time is not held against the host\.$/);
    const [host] = hosts(result);
    expect(host?.bannerMs).toBeNull();
    expect(host?.['unreliableBannerTiming']).toMatchObject({ measuredMs: expect.any(Number), lagMs: expect.any(Number) });
  });

  it('is an error when the only MX host has no address', async () => {
    const result = await scan('dangling.test', 1);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SMTP_MX_NO_ADDRESS:error']);
    expect(result.details.findings[0]?.rfc).toBe('RFC 5321 §5.1');
  });

  it('is missing without MX records, and for a null MX', async () => {
    const none = await scan('nomx.test', 1);
    expect(none.status).toBe('missing');
    expect(codes(none)).toEqual(['SMTP_NO_MX:warning']);
    expect(none.message).toBe('nomx.test has no MX record, so there is no mail server to probe; senders fall back to its A/AAAA address.');
    const nullMx = await scan('nullmx.test', 1);
    expect(nullMx.status).toBe('missing');
    expect(codes(nullMx)).toEqual(['SMTP_NULL_MX:info']);
  });

  it('is unknown when the MX lookup or the MX host lookups time out', async () => {
    const mxDown = await scan('dnsdown.test', 1);
    expect(mxDown.status).toBe('unknown');
    expect(mxDown.message).toBe('The MX records of dnsdown.test could not be looked up, so its mail servers were not probed.');
    expect(mxDown.details['error']).toMatch(/timed out/);
    const hostDown = await scan('dnsdown-mx.test', 1);
    expect(hostDown.status).toBe('unknown');
    expect(codes(hostDown)).toEqual(['SMTP_LOOKUP_FAILED:info']);
  });
});
