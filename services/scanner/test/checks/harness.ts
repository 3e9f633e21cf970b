import type { TestDnsServer } from '@sendwell/testing';
import type { CheckContext, ScanConfig, ScanMemo } from '../../src/checks/types.js';
import { createResolver } from '../../src/dns/resolver.js';
import type { Resolver } from '../../src/dns/types.js';

/**
 * What the check tests build the same way: the scan settings, a resolver asking the fixture DNS
 * server, and a check's context made of both. The settings point every port at 1, where nothing
 * listens, until a test points one at its fixture server, and allow loopback, where the fixtures listen.
 */

/** The name the probes introduce themselves with (EHLO). */
export const TEST_HELO = 'scanner.sendwell.test';

/** The scan settings of a check test: no block lists, nothing listening, loopback allowed; `overrides` win. */
export function testConfig(overrides: Partial<ScanConfig> = {}): ScanConfig {
  return {
    dnsblIpZones: [],
    dnsblDomainZones: [],
    tlsPort: 1,
    httpsPort: 1,
    smtpPort: 1,
    heloName: TEST_HELO,
    authoritativeDnsPort: 53,
    timeoutMs: 1_000,
    outbound: { allowLoopback: true },
    ...overrides,
  };
}

/** A new resolver (its cache lives as long as one check run, as a scan's does) asking the fixture DNS server. */
export function fixtureResolver(dns: Pick<TestDnsServer, 'host' | 'port'>, timeoutMs = 500): Resolver {
  return createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs });
}

export interface ContextOptions {
  /** The resolver's timeout (default 500 ms). */
  dnsTimeoutMs?: number;
  /** Over testConfig()'s settings. */
  config?: Partial<ScanConfig>;
  dkimSelectors?: string[];
  /** A scan's memo, for checks that share what they make (runScan gives each scan one). */
  memo?: ScanMemo;
}

/** The context of one check run against the fixture DNS server. */
export function checkContext(domain: string, dns: Pick<TestDnsServer, 'host' | 'port'>, options: ContextOptions = {}): CheckContext {
  return {
    domain,
    resolver: fixtureResolver(dns, options.dnsTimeoutMs),
    config: testConfig(options.config),
    dkimSelectors: options.dkimSelectors ?? [],
    ...(options.memo ? { memo: options.memo } : {}),
  };
}
