import { createLogger } from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { checksRegistry } from './scan/checks-registry.js';
import type { SweepResult } from '@sendwell/scan-engine';

/**
 * The scanner for other services' tests (`@sendwell/scanner/testing`), so they drive the real worker
 * and sweeper without importing its internals. Never bundled: the build's only entry is src/main.ts.
 */

export interface TestScannerOptions {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  /** The fixture DNS server every lookup goes to, the authoritative ones included. */
  dns: { url: string; port: number };
  /** A fixture TLS server for the certificate check (its port on every address, and its CA); else a closed port. */
  tls?: { port: number; caFile: string };
}

export interface TestScanner {
  /** A scan-queue Worker with the real checks; close it before `close()`. */
  startWorker(): Worker;
  /** One pass of the scheduled-scan sweeper: claims due domains and queues their scans. */
  sweep(): Promise<SweepResult>;
  close(): Promise<void>;
}

/**
 * Offline by construction: block lists are fixture zones that list nothing, and TLS goes to a fixture
 * server or a closed port, so no check leaves the machine.
 */
export function createTestScanner(options: TestScannerOptions): TestScanner {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_MAX: '4',
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.queuePrefix,
    DNS_SERVERS: options.dns.url,
    // Generous: a busy CI machine must not turn a fixture answer into a timeout (an `unknown` check).
    DNS_TIMEOUT_MS: '3000',
    SCAN_AUTHORITATIVE_DNS_PORT: String(options.dns.port),
    SCAN_TLS_PORT: String(options.tls?.port ?? 1),
    // No fixture MTA-STS policy server or MX: closed ports, so those checks answer quickly and offline.
    SCAN_HTTPS_PORT: '1',
    SCAN_SMTP_PORT: '1',
    // The fixture TLS server listens on loopback, where the zone's A records point.
    ...(options.tls ? { SCAN_TLS_EXTRA_CA_FILE: options.tls.caFile, ALLOW_LOOPBACK_TARGETS: 'true' } : {}),
    SCAN_TIMEOUT_MS: '2000',
    DNSBL_IP_ZONES: 'bl.fixture.test',
    DNSBL_DOMAIN_ZONES: 'dbl.fixture.test',
  });
  const deps = createDeps(env, createLogger('scanner-test', 'silent'), { checks: checksRegistry, collectDefaultMetrics: false });
  return {
    startWorker: () => deps.startWorker(),
    sweep: () => deps.sweeper.sweep(),
    close: () => deps.close(),
  };
}
