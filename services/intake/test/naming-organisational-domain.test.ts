import { describe, expect, it } from 'vitest';
import { organisationalDomain } from '../src/naming/organisational-domain.js';

describe('organisationalDomain', () => {
  it('gives the registrable domain of a host, by the ICANN public suffixes', () => {
    expect(organisationalDomain('mail-sor-f41.google.com')).toBe('google.com');
    expect(organisationalDomain('O1.Mail.Example.CO.UK.')).toBe('example.co.uk');
    expect(organisationalDomain('example.org')).toBe('example.org');
    expect(organisationalDomain('ec2-192-0-2-1.compute-1.amazonaws.com')).toBe('amazonaws.com');
  });

  it('is null for addresses, bare suffixes and implausible names', () => {
    for (const value of ['192.0.2.1', '2001:db8::1', 'co.uk', 'com', '', 'localhost', 'a..b.com', `${'a'.repeat(64)}.example.com`, 'bad host.example.com']) {
      expect(organisationalDomain(value), value).toBeNull();
    }
  });
});
