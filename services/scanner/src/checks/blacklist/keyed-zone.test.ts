import { describe, expect, it } from 'vitest';
import { redactedZone, splitQueryKey } from './keyed-zone.js';
import { zonesFrom } from './plan.js';
import { DEFAULT_DNSBL_DOMAIN_ZONES, DEFAULT_DNSBL_IP_ZONES, dnsblZone, parseDnsblZoneSpecs } from './zones.js';

const KEY = 's3cr3tkey0123456789';
const KEYED = ['zen.dq.spamhaus.net'];

describe('splitQueryKey', () => {
  it('reads the key in front of a zone the catalogue knows to need one, and an explicit key@zone', () => {
    expect(splitQueryKey(`${KEY}.zen.dq.spamhaus.net`, KEYED)).toEqual({ zone: 'zen.dq.spamhaus.net', key: KEY });
    expect(splitQueryKey(`${KEY}@zen.dq.example`, KEYED)).toEqual({ zone: 'zen.dq.example', key: KEY });
    expect(splitQueryKey('zen.spamhaus.org', KEYED)).toEqual({ zone: 'zen.spamhaus.org', key: null });
  });

  it.each([
    ['zen.dq.spamhaus.net', 'zen.dq.spamhaus.net is reached with a key: configure it as <key>.zen.dq.spamhaus.net'],
    [`a.${KEY}.zen.dq.spamhaus.net`, 'the key before "zen.dq.spamhaus.net" must be one DNS label (letters, digits, hyphens)'],
    [`${KEY}_x@zen.dq.example`, 'the key before "@zen.dq.example" must be one DNS label (letters, digits, hyphens)'],
    [`${KEY}@`, 'a block list zone must follow the key and its "@"'],
  ])('refuses %s without repeating the key', (configured, message) => {
    expect(() => splitQueryKey(configured, KEYED)).toThrow(message);
    try {
      splitQueryKey(configured, KEYED);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY);
    }
  });

  it('shows a keyed zone with the key replaced, and a plain zone as it is', () => {
    expect(redactedZone({ zone: 'zen.dq.spamhaus.net', key: KEY })).toBe('<redacted>.zen.dq.spamhaus.net');
    expect(redactedZone({ zone: 'zen.spamhaus.org', key: null })).toBe('zen.spamhaus.org');
  });
});

describe('a configured list reached with a key', () => {
  it('keeps the key in the query zone only: Spamhaus DQS gets its display name and the public lists’ answers', () => {
    const zen = dnsblZone(`${KEY}.zen.dq.spamhaus.net`, 'ip');
    expect(zen).toMatchObject({ name: 'Spamhaus ZEN (DQS)', zone: '<redacted>.zen.dq.spamhaus.net', queryZone: `${KEY}.zen.dq.spamhaus.net`, keyed: true });
    expect(zen.refusedCodes).toEqual(dnsblZone('zen.spamhaus.org', 'ip').refusedCodes);
    const { queryZone: _private, ...shown } = zen;
    expect(JSON.stringify(shown)).not.toContain(KEY);

    expect(dnsblZone(`${KEY}.dbl.dq.spamhaus.net`, 'domain')).toMatchObject({ name: 'Spamhaus DBL (DQS)', testDomain: 'dbltest.com' });
    // A list the catalogue does not know is named by its public zone.
    expect(dnsblZone(`${KEY}@zen.dq.example`, 'ip')).toMatchObject({ name: 'zen.dq.example', zone: '<redacted>.zen.dq.example', queryZone: `${KEY}.zen.dq.example` });
  });

  it('parses from the environment with its listing codes, the key kept apart from the zone', () => {
    expect(parseDnsblZoneSpecs(`${KEY.toUpperCase()}.ZEN.dq.spamhaus.net.=127.0.0.2,127.0.0.4, ${KEY}@zen.dq.example, bl.example`)).toEqual([
      { zone: 'zen.dq.spamhaus.net', key: KEY, listedCodes: ['127.0.0.2', '127.0.0.4'] },
      { zone: 'zen.dq.example', key: KEY },
      { zone: 'bl.example' },
    ]);
    expect(() => parseDnsblZoneSpecs('zen.dq.spamhaus.net')).toThrow('is reached with a key');
  });

  it('is one list whatever its key (the public zone is its id), and never a default', () => {
    expect(zonesFrom([`${KEY}.zen.dq.spamhaus.net`, 'otherkey@zen.dq.spamhaus.net'], [], 'ip').map((z) => z.queryZone)).toEqual([`${KEY}.zen.dq.spamhaus.net`]);
    expect([...DEFAULT_DNSBL_IP_ZONES, ...DEFAULT_DNSBL_DOMAIN_ZONES].some((zone) => zone.includes('.dq.'))).toBe(false);
  });
});
