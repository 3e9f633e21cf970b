import { readFileSync } from 'node:fs';
import { DEV_INTAKE_DOMAIN, DOMAIN_PATTERN } from '@sendwell/contracts';
import { baseEnvSchema, envPort, parseEnv, requireProductionSettings } from '@sendwell/server-kit';
import { z } from 'zod';
import { parseDnsblZoneSpecs } from './checks/blacklist/zones.js';
import { parseTrustAnchors } from './checks/shared/dnssec/trust-anchor.js';
import type { ScanConfig } from './checks/types.js';
import { parseDnsServers } from './dns/servers.js';

/** "zen.example=127.0.0.2,127.0.0.4, bl.example" → zones with their listing codes; unset or blank → []. */
const dnsblZones = z
  .string()
  .default('')
  .transform((value, ctx) => {
    try {
      return parseDnsblZoneSpecs(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

/** DNS_SERVERS through the resolver's own parser; empty means the system's resolvers. */
const dnsServers = z
  .string()
  .default('')
  .transform((value, ctx) => {
    try {
      return parseDnsServers(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const positiveInt = (fallback: number, max = 10_000_000) => z.coerce.number().int().min(1).max(max).default(fallback);

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3005),
    /** Scans are I/O bound, so one process runs many at once. */
    SCANNER_CONCURRENCY: positiveInt(50, 10_000),
    SCAN_SWEEP_EVERY_MS: positiveInt(30_000),
    SCAN_SWEEP_BATCH: positiveInt(1_000, 100_000),
    /** How often the block lists are probed at their test points (one probe round per deployment). */
    SCAN_BLOCKLIST_PROBE_EVERY_MS: positiveInt(5 * 60_000),
    /** How often each scanner re-reads the probe results (a degraded list is skipped from then on). */
    SCAN_BLOCKLIST_REFRESH_MS: positiveInt(30_000),
    /**
     * How far a claimed domain's due time is pushed while its scan is queued; a scan that never
     * completes (lost job, final failure) makes the domain due again after this.
     */
    SCAN_CLAIM_LEASE_MS: positiveInt(10 * 60_000),
    /**
     * A `queued` or `running` scan with no sign of life for this long is checked by the sweeper's
     * recovery pass, and re-queued if its job is gone (Redis lost it). Longer than a queue add takes
     * (3 s) and shorter than the 60 s recovery target after a Redis loss, with the sweep interval.
     */
    SCAN_RECOVERY_LEASE_MS: positiveInt(15_000),
    /** Re-queues of one lost scan before it is failed for good, with the reason. */
    SCAN_RECOVERY_TRIES: positiveInt(3, 100),
    /**
     * A worker's hold on a running scan. BullMQ renews it every quarter to half of this from the event
     * loop, so a loop blocked for about half of it loses the lock and the scan is wrongly re-run
     * elsewhere; a killed worker's scans are taken over within about this plus SCAN_STALLED_INTERVAL_MS.
     * 12 s tolerates a 6 s blocked loop; the worst measured at full concurrency on overloaded cores
     * was 1.1 s (README "Worker crashes").
     */
    SCAN_LOCK_DURATION_MS: positiveInt(12_000, 600_000),
    /** How often workers look for scans whose lock expired (a dead worker's) and queue them again. */
    SCAN_STALLED_INTERVAL_MS: positiveInt(5_000, 600_000),
    /** Crashes of workers during one scan that re-run it; one more fails it for good. */
    SCAN_MAX_STALLED_COUNT: positiveInt(2, 100),
    /** Empty: the system's resolvers (/etc/resolv.conf). */
    DNS_SERVERS: dnsServers,
    DNS_TIMEOUT_MS: positiveInt(2_000, 60_000),
    /** Empty: the blacklist check's built-in zones. `zone=127.0.0.2,127.0.0.4`: only those answers mean listed. */
    DNSBL_IP_ZONES: dnsblZones,
    DNSBL_DOMAIN_ZONES: dnsblZones,
    SCAN_TLS_PORT: envPort(443),
    SCAN_TLS_EXTRA_CA_FILE: z.string().optional(),
    /** The MTA-STS policy fetch (RFC 8461 §3.3 fixes 443; tests point it at a fixture server). */
    SCAN_HTTPS_PORT: envPort(443),
    /** The MX hosts' SMTP port for the STARTTLS probe (25; tests point it at a fixture server). */
    SCAN_SMTP_PORT: envPort(25),
    /** EHLO name of the SMTP probe; a receiving server may check that it resolves to the scanner's address. */
    SCAN_HELO_NAME: z.string().regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'must be a fully qualified host name').default('scanner.sendwell.invalid'),
    SCAN_AUTHORITATIVE_DNS_PORT: envPort(53),
    /** DS records in presentation format (`. 20326 8 2 E06D…`, separated by `;`); empty: the root's KSK-2017 and KSK-2024. */
    SCAN_DNSSEC_TRUST_ANCHOR: z
      .string()
      .default('')
      .transform((value, ctx) => {
        if (value.trim() === '') return null;
        try {
          return parseTrustAnchors(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    /**
     * Timing probes (the DNS performance check's SOA questions) in flight at once in one process, so
     * every answer is read in the first turn of the event loop after it arrives (src/timing/timing-gate.ts).
     */
    SCAN_TIMING_PROBES: positiveInt(16, 1_000),
    /** Per-connection timeout of TLS and other network probes. */
    SCAN_TIMEOUT_MS: positiveInt(5_000, 120_000),
    /**
     * The intake's report domain (as the intake service reads it): DMARC recommendations suggest the
     * domain's own report address, `<report_token>@<INTAKE_DOMAIN>`.
     */
    INTAKE_DOMAIN: z.string().regex(DOMAIN_PATTERN, 'must be a domain name such as reports.example.com').default(DEV_INTAKE_DOMAIN).transform((d) => d.toLowerCase()),
    /** A check still running after this is abandoned as `unknown`, so one hung probe cannot hold a worker slot (nor outlast the 25 s shutdown grace). */
    SCAN_CHECK_DEADLINE_MS: positiveInt(20_000, 600_000),
  })
  .superRefine(requireProductionSettings)
  .superRefine((env, ctx) => {
    // Receiving servers may refuse or slow down a client whose EHLO name does not resolve to it.
    if (env.NODE_ENV === 'production' && env.SCAN_HELO_NAME.endsWith('.invalid')) {
      ctx.addIssue({ code: 'custom', path: ['SCAN_HELO_NAME'], message: 'must be set in production to a name that resolves to the scanner' });
    }
    // The development domain receives no mail: recommending it would send users' reports nowhere.
    if (env.NODE_ENV === 'production' && env.INTAKE_DOMAIN === DEV_INTAKE_DOMAIN) {
      ctx.addIssue({ code: 'custom', path: ['INTAKE_DOMAIN'], message: "must be set in production (the intake's report domain, as the intake service has it)" });
    }
  });

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('scanner', schema, source);
}

/**
 * The checks' settings from the environment, in one place. Empty DNSBL lists stay empty here: the
 * blacklist check substitutes its built-in zones (src/checks/blacklist/zones.ts) for an empty list.
 */
export function scanConfigFromEnv(env: Env): ScanConfig {
  return {
    dnsblIpZones: env.DNSBL_IP_ZONES,
    dnsblDomainZones: env.DNSBL_DOMAIN_ZONES,
    tlsPort: env.SCAN_TLS_PORT,
    ...(env.SCAN_TLS_EXTRA_CA_FILE ? { tlsExtraCa: readFileSync(env.SCAN_TLS_EXTRA_CA_FILE, 'utf8') } : {}),
    httpsPort: env.SCAN_HTTPS_PORT,
    smtpPort: env.SCAN_SMTP_PORT,
    heloName: env.SCAN_HELO_NAME,
    authoritativeDnsPort: env.SCAN_AUTHORITATIVE_DNS_PORT,
    ...(env.SCAN_DNSSEC_TRUST_ANCHOR ? { dnssecTrustAnchors: env.SCAN_DNSSEC_TRUST_ANCHOR } : {}),
    timeoutMs: env.SCAN_TIMEOUT_MS,
    intakeDomain: env.INTAKE_DOMAIN,
    outbound: { allowLoopback: env.ALLOW_LOOPBACK_TARGETS },
  };
}
