import { isCoreCheckType } from '@sendwell/contracts';
import type { CheckResult } from '../checks/types.js';
import type { ScanChecks } from '../scoring/reputation.js';

export type ScanDomainStatus = 'healthy' | 'warning' | 'critical';

/** True when the certificate check reports an expiry in the past. */
export function certificateExpired(ssl: CheckResult, now: Date = new Date()): boolean {
  if (ssl.status !== 'error') return false;
  const days = ssl.details.daysRemaining;
  if (typeof days === 'number') return days < 0;
  const expiresAt = ssl.details.expiresAt;
  return typeof expiresAt === 'string' && Date.parse(expiresAt) < now.getTime();
}

/**
 * The domain's overall status after a scan:
 * - critical: mail from the domain is unauthenticated or blocked: SPF or DMARC in error or missing,
 *   the blacklist check reports a listing (its `error`), or the certificate has expired;
 * - warning: any other core check in warning, error or missing (e.g. a weak DKIM key, slow name
 *   servers), or `unknown` (the check could not tell, e.g. DNS timed out): a domain is healthy only
 *   when confirmed; and a mail-transport check in error (an MX without STARTTLS, a broken MTA-STS
 *   policy). A missing MTA-STS or TLS-RPT is optional hardening: it costs points, not the status;
 * - healthy: every core check passed.
 */
export function overallStatus(checks: ScanChecks, now: Date = new Date()): ScanDomainStatus {
  const broken = (c: CheckResult) => c.status === 'error' || c.status === 'missing';
  if (broken(checks.spf) || broken(checks.dmarc) || checks.blacklist.status === 'error' || certificateExpired(checks.ssl_certificate, now)) {
    return 'critical';
  }
  const anyIssue = Object.values(checks).some((c) =>
    isCoreCheckType(c.type) ? c.status === 'warning' || c.status === 'unknown' || broken(c) : c.status === 'error',
  );
  return anyIssue ? 'warning' : 'healthy';
}
