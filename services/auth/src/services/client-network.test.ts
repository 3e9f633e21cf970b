import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.js';

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:203.0.113.7', '203.0.113.0/24'],
    ['::ffff:cb00:7107', '203.0.113.0/24'],
    ['2001:db8:aa:bbcc:1::1', '2001:db8:aa:bb00::/56'],
    ['2001:DB8:AA:BBFF::9', '2001:db8:aa:bb00::/56'],
    ['2001:db8::1', '2001:db8:0:0::/56'],
    ['fe80::1%eth0', 'fe80:0:0:0::/56'],
    ['::1', '0:0:0:0::/56'],
    ['2001:db8:1:2:3:4:1.2.3.4', '2001:db8:1:0::/56'],
    [null, 'unknown'],
    ['', 'unknown'],
    ['not an address', 'unknown'],
  ])('%s is in %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });

  it('puts two IPv6 addresses in one network exactly when their first 56 bits agree', () => {
    const groups = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(groups, groups, (a, b) => {
        const text = (g: number[]) => g.map((n) => n.toString(16)).join(':');
        const same56 = a.slice(0, 3).join() === b.slice(0, 3).join() && a[3]! >> 8 === b[3]! >> 8;
        const mapped = (g: number[]) => g.slice(0, 6).join() === '0,0,0,0,0,65535';
        fc.pre(!mapped(a) && !mapped(b));
        expect(clientNetwork(text(a)) === clientNetwork(text(b))).toBe(same56);
      }),
    );
  });
});
