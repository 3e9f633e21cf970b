import { blocklistHealthSchema } from '@sendwell/contracts';
import { createLogger, createRedis } from '@sendwell/server-kit';
import { blocklistFixtureZones, deleteKeys, FIXTURE_BLOCKLISTS, startDnsServer, testRedisUrl, uniquePrefix, type TestDnsServer } from '@sendwell/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlocklistRegistry } from '../../src/blocklists/registry.js';
import { blacklistCheck } from '../../src/checks/blacklist/blacklist.check.js';
import { zonesFrom } from '../../src/checks/blacklist/plan.js';
import type { BlocklistHealthView, ScanConfig } from '../../src/checks/types.js';
import { createResolver } from '../../src/dns/resolver.js';

/**
 * The self-testing block list registry against real lists on the fixture DNS server and real Redis:
 * lists that answer their RFC 5782 test points right stay in use; one that lists everything, one that
 * never answers and one that lists nothing are set aside, and the blacklist check reads them as unknown.
 */

const ALL = 'all.fixture.test';
const SILENT = 'silent.fixture.test';
const EMPTY = 'empty.fixture.test';
const prefix = uniquePrefix('blocklists');
let dns: TestDnsServer;
let redis: Redis;

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      ...blocklistFixtureZones(),
      // A lapsed list whose zone now answers everything with a listing code.
      [`*.${ALL}`]: { A: ['127.0.0.2'] },
      'shop.test': { MX: [{ priority: 10, exchange: 'mx.shop.test' }], TXT: ['v=spf1 mx -all'] },
      'mx.shop.test': { A: ['192.0.2.25'] },
    },
    behaviours: { [SILENT]: 'timeout' },
  });
  redis = createRedis(testRedisUrl(), 'client');
});

afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
  await dns.close();
});

const ipZones = [FIXTURE_BLOCKLISTS.ip, ALL, SILENT, EMPTY];
const resolver = () => createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 300 });

function registry(now = () => new Date('2026-11-26T12:00:00Z')): BlocklistRegistry {
  return new BlocklistRegistry({
    redis,
    prefix,
    zones: [...zonesFrom(ipZones, [], 'ip'), ...zonesFrom([FIXTURE_BLOCKLISTS.domain], [], 'domain')],
    newResolver: resolver,
    logger: createLogger('test', 'silent'),
    now,
  });
}

function config(blocklistHealth?: BlocklistHealthView): ScanConfig {
  return {
    dnsblIpZones: ipZones,
    dnsblDomainZones: [FIXTURE_BLOCKLISTS.domain],
    tlsPort: 1,
    httpsPort: 1,
    smtpPort: 1,
    heloName: 'scanner.sendwell.test',
    authoritativeDnsPort: dns.port,
    timeoutMs: 300,
    outbound: { allowLoopback: true },
    ...(blocklistHealth ? { blocklistHealth } : {}),
  };
}

describe('the block list registry', () => {
  it('keeps lists that answer their test points, and sets aside one that lists everything, one that is silent and one that lists nothing', async () => {
    const states = await registry().probeAll();
    expect(states.map((s) => blocklistHealthSchema.parse(s))).toHaveLength(5);
    expect(states.map((s) => [s.zone, s.state])).toEqual([
      [FIXTURE_BLOCKLISTS.ip, 'healthy'],
      [ALL, 'degraded'],
      [SILENT, 'degraded'],
      [EMPTY, 'degraded'],
      [FIXTURE_BLOCKLISTS.domain, 'healthy'],
    ]);
    const reason = (zone: string) => states.find((s) => s.zone === zone)?.reason;
    expect(reason(ALL)).toBe('lists everything: it answers 127.0.0.2 for 127.0.0.1, which no list may list');
    expect(reason(SILENT)).toBe('did not answer in time for its test point 127.0.0.2');
    expect(reason(EMPTY)).toBe('does not list its test point 127.0.0.2');
    expect(reason(FIXTURE_BLOCKLISTS.ip)).toBeNull();
    // The probes asked exactly the RFC 5782 §5 test points.
    const asked = dns.queryLog.map((q) => q.name.toLowerCase());
    expect(asked).toEqual(expect.arrayContaining([`2.0.0.127.${FIXTURE_BLOCKLISTS.ip}`, `1.0.0.127.${FIXTURE_BLOCKLISTS.ip}`, `test.${FIXTURE_BLOCKLISTS.domain}`, `invalid.${FIXTURE_BLOCKLISTS.domain}`]));
  });

  it('is shared by every scanner through Redis, and keeps the time a list entered its state', async () => {
    const first = registry(() => new Date('2026-11-26T12:00:00Z'));
    await first.probeAll();
    const later = registry(() => new Date('2026-11-26T12:05:00Z'));
    const again = await later.probeAll();
    expect(again.find((s) => s.zone === ALL)).toMatchObject({ checkedAt: '2026-11-26T12:05:00.000Z', since: '2026-11-26T12:00:00.000Z' });

    // Another process that never probed reads the same view.
    const other = registry();
    expect(other.degradedReason(ALL)).toBeNull();
    await other.refresh();
    expect(other.degradedReason(ALL)).toMatch(/^lists everything/);
    expect(other.degradedReason(FIXTURE_BLOCKLISTS.ip)).toBeNull();
    expect((await other.states()).map((s) => s.zone)).toEqual([...ipZones, FIXTURE_BLOCKLISTS.domain]);
  });

  it('makes the blacklist check read a degraded list as unknown instead of a listing, without asking it', async () => {
    // Without the registry, the list that lists everything reports the domain's mail server as listed.
    const unguarded = await blacklistCheck({ domain: 'shop.test', resolver: resolver(), config: config(), dkimSelectors: [] });
    expect(unguarded.status).toBe('error');

    const guard = registry();
    await guard.probeAll();
    const before = dns.queryLog.length;
    const result = await blacklistCheck({ domain: 'shop.test', resolver: resolver(), config: config(guard), dkimSelectors: [] });
    const askedNow = dns.queryLog.slice(before).map((q) => q.name.toLowerCase());
    expect(askedNow.some((name) => name.endsWith(ALL))).toBe(false);
    expect(askedNow).toContain(`25.2.0.192.${FIXTURE_BLOCKLISTS.ip}`);

    expect(result.status).toBe('valid');
    expect(result.message).toBe('Not listed on any block list that answered (3 of 5 could not be checked).');
    const sites = result.details.sites ?? [];
    expect(sites.find((s) => s.name === ALL)?.status).toBe('unknown');
    const degraded = result.details.findings.filter((f) => f.code === 'BLACKLIST_LIST_DEGRADED');
    expect(degraded.map((f) => f['zone'])).toEqual([ALL, SILENT, EMPTY]);
    expect(degraded[0]).toMatchObject({
      severity: 'info',
      rfc: 'RFC 5782 §5',
      message: `${ALL} (${ALL}) could not be checked: the list fails its own test points (lists everything: it answers 127.0.0.2 for 127.0.0.1, which no list may list), so its answers are not used until it recovers. It is reported as unknown, not listed.`,
    });
  });
});
