import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SourceNamer } from '../src/naming/source-namer.js';
import { silentLogger, startHarness, type Harness } from './fixtures.js';
import { ADDR, namingBehaviours, namingZones } from './naming/zones.js';

let dns: TestDnsServer;
let h: Harness;

beforeAll(async () => {
  dns = await startDnsServer({ records: namingZones(), behaviours: namingBehaviours });
  // The namer as the service wires it, pointed at the fixture server.
  h = await startHarness({ DNS_SERVERS: dns.url, DNS_TIMEOUT_MS: '200' });
});

afterAll(async () => {
  await h?.close();
  await dns?.close();
});

beforeEach(async () => {
  await h.db.deleteFrom('mailSources').execute();
});

async function insert(...ips: string[]) {
  await h.db
    .insertInto('mailSources')
    .values(ips.map((ip) => ({ ip })))
    .execute();
}

async function rows() {
  const found = await h.db.selectFrom('mailSources').select(['ip', 'host', 'serviceId', 'namedAt']).execute();
  return new Map(found.map((row) => [row.ip, row]));
}

describe('SourceNamer.nameUnnamed', () => {
  it('names each address by confirmed host first, else by the services’ SPF ranges', async () => {
    const all = Object.values(ADDR);
    await insert(...all);
    const before = Date.now();
    await expect(h.deps.namer.nameUnnamed(200)).resolves.toBe(all.length);
    const named = await rows();
    const of = (ip: string) => {
      const row = named.get(ip);
      return { host: row?.host, serviceId: row?.serviceId };
    };

    expect(of(ADDR.googleHost)).toEqual({ host: 'mail-sor-f10.google.com', serviceId: 'google-workspace' });
    // A PTR naming SendGrid counts for nothing when SendGrid's A record does not point back.
    expect(of(ADDR.forgedPtr)).toEqual({ host: null, serviceId: null });
    expect(of(ADDR.plainHost)).toEqual({ host: 'relay.example.org', serviceId: null });
    expect(of(ADDR.manyPtrs)).toEqual({ host: null, serviceId: null });
    expect(of(ADDR.secondPtr)).toEqual({ host: 'mx.second.example.org', serviceId: null });
    expect(of(ADDR.ptrTimeout)).toEqual({ host: null, serviceId: 'sendgrid' });
    expect(of(ADDR.sendgridRange)).toEqual({ host: null, serviceId: 'sendgrid' });
    expect(of(ADDR.sendgridMapped)).toEqual({ host: null, serviceId: 'sendgrid' });
    expect(of(ADDR.googleRangeOtherHost)).toEqual({ host: 'o1.mail.example.net', serviceId: 'google-workspace' });
    expect(of(ADDR.unknown)).toEqual({ host: null, serviceId: null });
    expect(of(ADDR.googleV6Host)).toEqual({ host: 'mail-ipv6.google.com', serviceId: 'google-workspace' });
    expect(of(ADDR.googleV6Range)).toEqual({ host: null, serviceId: 'google-workspace' });
    expect(of(ADDR.unknownV6)).toEqual({ host: null, serviceId: null });
    for (const row of named.values()) expect(row.namedAt?.getTime()).toBeGreaterThanOrEqual(before - 5_000);

    // The fourth PTR name of an address is never looked up; the ranges were resolved once for the batch.
    const asked = dns.queryLog.map((entry) => `${entry.type} ${entry.name.toLowerCase()}`);
    expect(asked).not.toContain('A p4.example.org');
    expect(asked.filter((q) => q === 'TXT _spf.google.com')).toHaveLength(1);
  });

  it('names nothing named recently, again what was named over a week ago, and at most `limit`', async () => {
    await insert(ADDR.sendgridRange, ADDR.unknown, ADDR.plainHost, ADDR.googleHost);
    await h.db
      .updateTable('mailSources')
      .set({ namedAt: sql<Date>`now() - interval '1 day'`, serviceId: 'kept' })
      .where('ip', '=', ADDR.sendgridRange)
      .execute();
    await h.db
      .updateTable('mailSources')
      .set({ namedAt: sql<Date>`now() - interval '8 days'`, serviceId: 'stale' })
      .where('ip', '=', ADDR.unknown)
      .execute();

    // The never-named come first.
    await expect(h.deps.namer.nameUnnamed(2)).resolves.toBe(2);
    let named = await rows();
    expect(named.get(ADDR.plainHost)?.host).toBe('relay.example.org');
    expect(named.get(ADDR.googleHost)?.serviceId).toBe('google-workspace');
    expect(named.get(ADDR.unknown)?.serviceId).toBe('stale');

    await expect(h.deps.namer.nameUnnamed(200)).resolves.toBe(1);
    named = await rows();
    expect(named.get(ADDR.unknown)?.serviceId).toBeNull();
    expect(named.get(ADDR.sendgridRange)?.serviceId).toBe('kept');

    await expect(h.deps.namer.nameUnnamed(200)).resolves.toBe(0);
    await expect(h.deps.namer.nameUnnamed(0)).resolves.toBe(0);
  });

  it('names addresses with what is known when DNS does not answer at all', async () => {
    // Every zone the namer asks in (reverse zones and the catalogue's SPF names) never answers.
    const silent = await startDnsServer({ behaviours: Object.fromEntries(['arpa', 'com', 'net', 'org', 'ch', 'io'].map((tld) => [tld, 'timeout'])) });
    try {
      const namer = new SourceNamer(h.db, { dnsServers: [silent.url], dnsTimeoutMs: 100 }, silentLogger);
      await insert(ADDR.googleHost, ADDR.sendgridRange, ADDR.googleV6Range);
      await expect(namer.nameUnnamed(10)).resolves.toBe(3);
      for (const row of (await rows()).values()) {
        expect(row).toMatchObject({ host: null, serviceId: null });
        expect(row.namedAt).not.toBeNull();
      }
      const asked = silent.queryLog.map((entry) => `${entry.type} ${entry.name.toLowerCase()}`);
      expect(asked).toContain('PTR 10.2.0.192.in-addr.arpa');
      expect(asked).toContain('TXT sendgrid.net');
    } finally {
      await silent.close();
    }
  });
});
