import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { baseEnvSchema, parseEnv, requireProductionSettings } from '../src/env.js';
import { addressRefusal, assertPublicAddress, describeSocketError, guardedLookup, nameRefusal, PrivateTargetError, resolvePublicAddresses } from '../src/outbound-guard.js';

const strict = { allowLoopback: false };
const tests = { allowLoopback: true };

describe('addressRefusal', () => {
  // [address, reason or null for public]: each IANA special-purpose block, and public neighbours.
  const table: Array<[string, string | null]> = [
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['0.0.0.0', 'unspecified address'],
    ['0.1.2.3', 'unspecified address'],
    ['10.0.0.5', 'private network'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['100.128.0.1', null],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private network'],
    ['172.31.255.255', 'private network'],
    ['172.32.0.1', null],
    ['192.0.0.8', 'reserved or documentation range'],
    ['192.0.0.9', null],
    ['192.0.0.10', null],
    ['192.0.2.1', 'reserved or documentation range'],
    ['192.88.99.1', 'reserved or documentation range'],
    ['192.168.1.1', 'private network'],
    ['198.18.0.1', 'reserved or documentation range'],
    ['198.19.255.1', 'reserved or documentation range'],
    ['198.51.100.7', 'reserved or documentation range'],
    ['203.0.113.9', 'reserved or documentation range'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved or documentation range'],
    ['255.255.255.255', 'broadcast'],
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001:80b::200e', null],
    ['::', 'unspecified address'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback, in an IPv4-mapped address'],
    ['::ffff:10.1.2.3', 'private network, in an IPv4-mapped address'],
    ['::ffff:8.8.8.8', null],
    ['::7f00:1', 'reserved (outside global unicast 2000::/3)'],
    ['64:ff9b::7f00:1', 'loopback, in a NAT64 address'],
    ['64:ff9b::a9fe:a9fe', 'link-local, in a NAT64 address'],
    ['64:ff9b::808:808', null],
    ['64:ff9b:1::808:808', 'NAT64 local-use'],
    ['100::1', 'discard-only'],
    ['2001::1', 'Teredo'],
    ['2001:1::1', null],
    ['2001:1::4', 'reserved or documentation range'],
    ['2001:2::1', 'benchmarking'],
    ['2001:3::1', null],
    ['2001:4:112::1', null],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', null],
    ['2001:db8::1', 'reserved or documentation range'],
    ['2002:7f00:1::1', 'loopback, in a 6to4 address'],
    ['2002:c0a8:101::1', 'private network, in a 6to4 address'],
    ['2002:808:808::1', null],
    ['3fff::1', 'reserved or documentation range'],
    ['5f00::1', 'segment routing'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['localhost', 'not an IP address'],
    ['0x7f.1', 'not an IP address'],
    ['2130706433', 'not an IP address'],
  ];
  it.each(table)('%s → %s', (ip, reason) => {
    expect(addressRefusal(ip, strict)).toBe(reason);
  });

  it('lets only 127.0.0.0/8 and ::1 through when loopback targets are allowed', () => {
    expect(addressRefusal('127.0.0.1', tests)).toBeNull();
    expect(addressRefusal('127.44.0.9', tests)).toBeNull();
    expect(addressRefusal('::1', tests)).toBeNull();
    expect(addressRefusal('0:0:0:0:0:0:0:1', tests)).toBeNull();
    for (const ip of ['10.0.0.1', '192.168.0.1', '169.254.169.254', '0.0.0.0', '::', 'fd00::1', '192.0.2.1', '::ffff:127.0.0.1', '2002:7f00:1::1']) {
      expect(addressRefusal(ip, tests), ip).not.toBeNull();
    }
  });

  it('assertPublicAddress throws a PrivateTargetError naming the reason', () => {
    expect(() => assertPublicAddress('8.8.8.8', strict)).not.toThrow();
    expect(() => assertPublicAddress('10.0.0.1', strict)).toThrow(new PrivateTargetError('10.0.0.1', 'private network'));
  });
});

describe('nameRefusal', () => {
  const table: Array<[string, string | null]> = [
    ['example.com', null],
    ['mx.healthy.test', null],
    ['www.example', null],
    ['192.0.2.1', null],
    ['localhost', 'special-use name .localhost'],
    ['LocalHost.', 'special-use name .localhost'],
    ['app.localhost', 'special-use name .localhost'],
    ['printer.local', 'special-use name .local'],
    ['svc.default.svc.cluster.local', 'special-use name .local'],
    ['router.home.arpa', 'special-use name .home.arpa'],
    ['db.internal', 'special-use name .internal'],
    ['nothing.invalid', 'special-use name .invalid'],
    ['abc.onion', 'special-use name .onion'],
    ['x.alt', 'special-use name .alt'],
    ['intranet', 'single-label name'],
    ['localhost.example.com', null],
  ];
  it.each(table)('%s → %s', (name, reason) => {
    expect(nameRefusal(name)).toBe(reason);
  });
});

describe('resolvePublicAddresses', () => {
  const fixed = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];

  it('keeps the public addresses and drops the others', async () => {
    const resolve = fixed({ 'mixed.example.com': ['10.0.0.1', '8.8.8.8', 'fd00::1', '2606:4700::1'] });
    expect(await resolvePublicAddresses('mixed.example.com', strict, resolve)).toEqual(['8.8.8.8', '2606:4700::1']);
  });

  it('refuses a name whose every address is private, a special-use name before any lookup, and a private literal', async () => {
    let asked = 0;
    const resolve = async (host: string) => {
      asked += 1;
      return host === 'rebind.example.com' ? ['127.0.0.1', '169.254.169.254'] : [];
    };
    await expect(resolvePublicAddresses('rebind.example.com', strict, resolve)).rejects.toThrow(new PrivateTargetError('rebind.example.com', 'loopback'));
    await expect(resolvePublicAddresses('metadata.internal', strict, resolve)).rejects.toThrow(new PrivateTargetError('metadata.internal', 'special-use name .internal'));
    await expect(resolvePublicAddresses('192.168.0.1', strict, resolve)).rejects.toThrow(new PrivateTargetError('192.168.0.1', 'private network'));
    await expect(resolvePublicAddresses('empty.example.com', strict, resolve)).rejects.toThrow(new PrivateTargetError('empty.example.com', 'no address'));
    expect(asked).toBe(2);
  });
});

describe('guardedLookup', () => {
  it('lets net.connect reach a public-resolving name and refuses one that resolves to loopback', async () => {
    const server = net.createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const resolve = async () => ['127.0.0.1'];
    const connect = (allowLoopback: boolean) =>
      new Promise<string>((done, fail) => {
        const socket = net.connect({ host: 'fixture.example.com', port, lookup: guardedLookup({ allowLoopback }, resolve) });
        socket.once('data', (data) => done(data.toString()));
        socket.once('error', fail);
      });
    try {
      expect(await connect(true)).toBe('hello');
      await expect(connect(false)).rejects.toThrow(new PrivateTargetError('fixture.example.com', 'loopback'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ALLOW_LOOPBACK_TARGETS', () => {
  const schema = baseEnvSchema.superRefine(requireProductionSettings);
  const secret = { JWT_SECRET: 'x'.repeat(40), TRUSTED_PROXIES: '10.0.0.0/8' };

  it('is off by default, on for tests, and refused in production', () => {
    expect(parseEnv('scanner', schema, {}).ALLOW_LOOPBACK_TARGETS).toBe(false);
    expect(parseEnv('scanner', schema, { NODE_ENV: 'test', ALLOW_LOOPBACK_TARGETS: 'true' }).ALLOW_LOOPBACK_TARGETS).toBe(true);
    expect(parseEnv('scanner', schema, { NODE_ENV: 'production', ALLOW_LOOPBACK_TARGETS: 'false', ...secret }).ALLOW_LOOPBACK_TARGETS).toBe(false);
    expect(() => parseEnv('scanner', schema, { NODE_ENV: 'production', ALLOW_LOOPBACK_TARGETS: 'true', ...secret })).toThrowError(
      /ALLOW_LOOPBACK_TARGETS: must not be set in production/,
    );
  });
});

describe('describeSocketError', () => {
  it('keeps a system error’s code but not its text, which names our own address and port', () => {
    const error = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(describeSocketError(error('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:443'))).toBe('connection refused');
    expect(describeSocketError(error('EADDRNOTAVAIL', 'connect EADDRNOTAVAIL 10.0.0.5:443 - Local (0.0.0.0:0)'))).toBe('connection failed (EADDRNOTAVAIL)');
    expect(describeSocketError(error('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number\nmore'))).toBe('ERR_SSL_WRONG_VERSION_NUMBER: wrong version number');
    expect(describeSocketError(new Error('connect 10.0.0.5'))).toBe('connection failed');
  });
});
