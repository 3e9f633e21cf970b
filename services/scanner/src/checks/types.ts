import type { CheckStatus, CheckType, Finding } from '@sendwell/contracts';
import type { Resolver } from '../dns/types.js';

/**
 * What a check module returns: the stored shape of one `domain_checks` row (part 2 §3), with
 * `details.findings` holding each problem as a stable code, severity, message and RFC clause.
 */
export interface CheckResult<D extends Record<string, unknown> = Record<string, unknown>> {
  type: CheckType;
  status: CheckStatus;
  value: string | null;
  message: string;
  recommendation: string | null;
  details: D & { findings: Finding[] };
}

/** Settings the checks read (from the scanner's env), passed in so checks stay pure of process.env. */
export interface ScanConfig {
  /** DNSBL zones queried with reversed IP addresses (RFC 5782 §2.1). */
  dnsblIpZones: string[];
  /** Domain-based lists (RFC 5782 §2.2), e.g. Spamhaus DBL, SURBL, URIBL. */
  dnsblDomainZones: string[];
  /** Port of the TLS handshake for the certificate check (443 in production). */
  tlsPort: number;
  /** Extra trusted CA certificates (PEM), for tests and private deployments. */
  tlsExtraCa?: string;
  /** Port used to query authoritative name servers directly (53 in production). */
  authoritativeDnsPort: number;
  /** Per-connection timeout for TLS and other network probes. */
  timeoutMs: number;
}

export interface CheckContext {
  /** The domain, lower-case, without a trailing dot. */
  domain: string;
  resolver: Resolver;
  config: ScanConfig;
  /** DKIM selectors the user saved on the domain, probed besides the common ones. */
  dkimSelectors: string[];
}

export type Check = (ctx: CheckContext) => Promise<CheckResult>;
