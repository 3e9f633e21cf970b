import { describe, expect, it } from 'vitest';
import { dnsblZone, parseDnsblZoneSpecs } from './zones.js';
import { classifyDnsblAnswer, dnsblQueryName, ipv6Nibbles, mapLimit } from './dnsbl.js';

describe('dnsblQueryName', () => {
  it('reverses IPv4 octets (RFC 5782 §2.1)', () => {
    expect(dnsblQueryName('192.0.2.99', 'bl.example')).toBe('99.2.0.192.bl.example');
  });

  it('reverses the 32 nibbles of IPv6 (RFC 5782 §2.4 example)', () => {
    expect(dnsblQueryName('2001:db8:1:2:3:4:567:89ab', 'ugly.example.com')).toBe(
      'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.ugly.example.com',
    );
  });

  it('expands :: and embedded IPv4', () => {
    expect(ipv6Nibbles('2001:db8::30')).toBe('20010db8000000000000000000000030');
    expect(ipv6Nibbles('::1')).toBe('00000000000000000000000000000001');
    expect(ipv6Nibbles('::ffff:127.0.0.2')).toBe('00000000000000000000ffff7f000002');
    expect(ipv6Nibbles('2001:DB8::')).toBe('20010db8000000000000000000000000');
  });

  it('rejects what is not an address', () => {
    expect(dnsblQueryName('mail.example.com', 'bl.example')).toBeNull();
  });
});

describe('classifyDnsblAnswer', () => {
  const zen = dnsblZone('zen.spamhaus.org', 'ip');
  const hostkarma = dnsblZone('hostkarma.junkemailfilter.com', 'ip');
  const generic = dnsblZone('bl.example', 'ip');

  it('no answer is clean', () => {
    expect(classifyDnsblAnswer(zen, [])).toEqual({ status: 'clean', codes: [] });
  });

  it('a 127/8 answer is a listing', () => {
    expect(classifyDnsblAnswer(zen, ['127.0.0.2', '127.0.0.4'])).toEqual({ status: 'listed', codes: ['127.0.0.2', '127.0.0.4'] });
    expect(classifyDnsblAnswer(generic, ['127.0.0.2'])).toEqual({ status: 'listed', codes: ['127.0.0.2'] });
  });

  it('Spamhaus refusal codes are refusals, never listings', () => {
    for (const code of ['127.255.255.252', '127.255.255.254', '127.255.255.255']) {
      expect(classifyDnsblAnswer(zen, [code])).toMatchObject({ status: 'refused', reason: 'refused' });
    }
  });

  it('answers outside 127.0.0.0/8 are untrusted', () => {
    expect(classifyDnsblAnswer(generic, ['192.0.2.1'])).toMatchObject({ status: 'refused', reason: 'unexpected' });
  });

  it('only listedCodes list when a zone defines them', () => {
    expect(classifyDnsblAnswer(hostkarma, ['127.0.0.1']).status).toBe('clean');
    expect(classifyDnsblAnswer(hostkarma, ['127.0.0.2']).status).toBe('listed');
  });

  it('generic zones treat 127.0.0.1 as a refusal', () => {
    expect(classifyDnsblAnswer(generic, ['127.0.0.1']).status).toBe('refused');
  });

  it('a list it does not know lists only with 127.0.0.2–127.0.0.255; its other answers are refusals', () => {
    for (const code of ['127.0.0.2', '127.0.0.17', '127.0.0.255']) expect(classifyDnsblAnswer(generic, [code]), code).toEqual({ status: 'listed', codes: [code] });
    for (const code of ['127.0.0.1', '127.255.255.254', '127.255.255.0', '127.255.255.255', '127.0.1.2', '127.1.0.2']) {
      expect(classifyDnsblAnswer(generic, [code]), code).toEqual({ status: 'refused', codes: [code], reason: 'refused' });
    }
    expect(classifyDnsblAnswer(generic, ['10.0.0.1'])).toMatchObject({ status: 'refused', reason: 'unexpected' });
  });

  it('no list reads its error block 127.255.255.0/24 as a listing', () => {
    expect(classifyDnsblAnswer(zen, ['127.255.255.253'])).toMatchObject({ status: 'refused', reason: 'refused' });
  });

  it('configured listing codes are the only listings, for a list it knows or not', () => {
    const coded = dnsblZone({ zone: 'bl.example', listedCodes: ['127.0.0.2', '127.0.0.4'] }, 'ip');
    expect(classifyDnsblAnswer(coded, ['127.0.0.4'])).toEqual({ status: 'listed', codes: ['127.0.0.4'] });
    expect(classifyDnsblAnswer(coded, ['127.0.0.3'])).toMatchObject({ status: 'refused', reason: 'refused' });
    const zenSbl = dnsblZone({ zone: 'zen.spamhaus.org', listedCodes: ['127.0.0.2'] }, 'ip');
    expect(zenSbl.name).toBe('Spamhaus ZEN');
    expect(classifyDnsblAnswer(zenSbl, ['127.0.0.4']).status).toBe('refused');
    expect(classifyDnsblAnswer(zenSbl, ['127.0.0.2', '127.0.0.4'])).toEqual({ status: 'listed', codes: ['127.0.0.2'] });
  });

  it('URIBL and SURBL 127.0.0.1 means blocked', () => {
    expect(classifyDnsblAnswer(dnsblZone('multi.uribl.com', 'domain'), ['127.0.0.1']).status).toBe('refused');
    expect(classifyDnsblAnswer(dnsblZone('multi.surbl.org', 'domain'), ['127.0.0.1']).status).toBe('refused');
    expect(classifyDnsblAnswer(dnsblZone('dbl.spamhaus.org', 'domain'), ['127.0.1.255']).status).toBe('refused');
  });
});

describe('mapLimit', () => {
  it('keeps order and never exceeds the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight--;
      return n * 2;
    });
    expect(out).toEqual([10, 2, 8, 4, 6, 0, 12]);
    expect(peak).toBe(3);
  });
});

describe('parseDnsblZoneSpecs', () => {
  it('reads zones with optional listing codes, the codes continuing after commas', () => {
    expect(parseDnsblZoneSpecs(' zen.example=127.0.0.2,127.0.0.4, bl.example,, Other.Example.=127.0.0.9 ')).toEqual([
      { zone: 'zen.example', listedCodes: ['127.0.0.2', '127.0.0.4'] },
      { zone: 'bl.example' },
      { zone: 'other.example', listedCodes: ['127.0.0.9'] },
    ]);
    expect(parseDnsblZoneSpecs('')).toEqual([]);
  });

  it.each([
    ['bl.example=10.0.0.2', '"10.0.0.2" is not a listing code: block lists answer with addresses in 127.0.0.0/8'],
    ['bl.example=127.0.0.2,8.8.8.8', '"8.8.8.8" is not a listing code: block lists answer with addresses in 127.0.0.0/8'],
    ['bl.example=listed', '"listed" is not a listing code: block lists answer with addresses in 127.0.0.0/8'],
    ['127.0.0.2', '"127.0.0.2" follows no "zone=code" entry'],
    ['bl.example, 127.0.0.2', '"127.0.0.2" follows no "zone=code" entry'],
  ])('refuses %j', (value, message) => {
    expect(() => parseDnsblZoneSpecs(value)).toThrow(message);
  });
});
