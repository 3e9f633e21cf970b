import type { CheckDetails, CheckStatus, CheckType, Finding } from '@sendwell/contracts';
import type { OutboundPolicy } from '@sendwell/server-kit';
import type { Resolver } from '../dns/types.js';
import type { DnsblZoneSpec } from './blacklist/zones.js';
import type { ReportedSelector } from './dkim/selectors.js';
import type { DsRecord } from './shared/dnssec/trust-anchor.js';
import type { MxProbeCache } from './shared/mx-probe/probe-cache.js';
import type { DnssecValidator } from './shared/dnssec/validator.js';

/**
 * What a check module returns: the stored shape of one `domain_checks` row (part 2 §3), with
 * `details.findings` holding each problem as a stable code, severity, message and RFC clause.
 * `D` is the contracts' details of the check's type (`CheckResult<BlacklistDetails>`), which domains
 * and reports read the row with.
 */
export interface CheckResult<D extends Record<string, unknown> = CheckDetails<CheckType>> {
  type: CheckType;
  status: CheckStatus;
  value: string | null;
  message: string;
  recommendation: string | null;
  details: D & { findings: Finding[] };
}

/** Settings the checks read (from the scanner's env), passed in so checks stay pure of process.env. */
export interface ScanConfig {
  /** DNSBL zones queried with reversed IP addresses (RFC 5782 §2.1): a zone name, or one with its listing codes. */
  dnsblIpZones: ReadonlyArray<string | DnsblZoneSpec>;
  /** Domain-based lists (RFC 5782 §2.2), e.g. Spamhaus DBL, SURBL, URIBL. */
  dnsblDomainZones: ReadonlyArray<string | DnsblZoneSpec>;
  /** Port of the TLS handshake for the certificate check (443 in production). */
  tlsPort: number;
  /** Extra trusted CA certificates (PEM) for every TLS connection a check makes, for tests and private deployments. */
  tlsExtraCa?: string;
  /** Port of the HTTPS fetches (the MTA-STS policy; 443 in production). */
  httpsPort: number;
  /** Port of the MX hosts' SMTP service (25 in production). */
  smtpPort: number;
  /** The name the SMTP probe introduces itself with in EHLO (RFC 5321 §4.1.1.1); it should resolve to the scanner's address. */
  heloName: string;
  /** Port used to query authoritative name servers directly (53 in production). */
  authoritativeDnsPort: number;
  /** Per-connection timeout for TLS and other network probes. */
  timeoutMs: number;
  /** Which addresses taken from DNS a check may connect to (the outbound guard; loopback only in tests). */
  outbound: OutboundPolicy;
  /** DNSSEC trust anchors (SCAN_DNSSEC_TRUST_ANCHOR); without them, the root's published KSKs. */
  dnssecTrustAnchors?: readonly DsRecord[];
  /** The block lists' self-test results (src/blocklists/registry.ts); without it every list is asked. */
  blocklistHealth?: BlocklistHealthView;
  /** The intake's report domain (INTAKE_DOMAIN): with the domain's report token, the address DMARC recommendations suggest. */
  intakeDomain?: string;
  /** SMTP conversations with providers' MX hosts, shared by the process's scans (checks/shared/mx-probe/probe-cache.ts); without it each scan has its own. */
  mxProbes?: MxProbeCache;
}

/** Which block lists answer wrongly at their test points, and why: their answers are not to be trusted. */
export interface BlocklistHealthView {
  /** Why the list (by its public zone, `DnsblZone.zone`: never a keyed query zone) is degraded, or null when it is healthy or was never probed. */
  degradedReason(zone: string): string | null;
}

export interface CheckContext {
  /** The domain, lower-case, without a trailing dot. */
  domain: string;
  resolver: Resolver;
  config: ScanConfig;
  /** DKIM selectors the user saved on the domain, probed besides the common ones. */
  dkimSelectors: string[];
  /** DKIM selectors the domain's DMARC aggregate reports saw signing its mail lately, most messages first. */
  reportedDkimSelectors?: ReportedSelector[];
  /**
   * The domain's `report_token` (its report address is `<token>@<intakeDomain>`); absent when the
   * domain has no row of its own (the public quick check, the CLI).
   */
  reportToken?: string;
  /** What the checks of one scan share (runScan gives each scan one); a check run alone makes its own. */
  memo?: ScanMemo;
}

/** Values made once per scan by the first check that needs them, then used by the others. */
export interface ScanMemo {
  /**
   * The scan's DNSSEC validator: the DNSSEC check validates the MX hosts' TLSA RRsets, and DANE needs
   * the same verdicts (RFC 7672 §2.2), so each RRset and each zone's chain is validated once.
   */
  dnssecValidator?: DnssecValidator;
}

/** A check of type `T`: its details must fit the contracts' schema of `T`, so a renamed field is a compile error. */
export type Check<T extends CheckType = CheckType> = (ctx: CheckContext) => Promise<CheckResult<CheckDetails<T>>>;

/** One check per type of the contracts, each typed by its own details. */
export type CheckRegistry = { [T in CheckType]: Check<T> };
