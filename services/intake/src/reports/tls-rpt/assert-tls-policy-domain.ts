import { refuse } from '../refusal.js';
import { isDomainOrBelow, normaliseDomain } from '../domain-names.js';
import type { TlsReport } from './types.js';

/**
 * A report reaches us through the `rua` of one domain's TLSRPT record (RFC 8460 §3), so at least
 * one of its policies must be about that domain or a name below it; otherwise anyone could file
 * reports against a domain they do not own.
 */
export function assertTlsPolicyDomain(report: TlsReport, issuedFor: string): void {
  const owner = normaliseDomain(issuedFor);
  const matches = report.policies.some((policy) => isDomainOrBelow(policy.domain, owner));
  if (!matches) {
    refuse('POLICY_DOMAIN_MISMATCH', `The TLS report is about ${describeDomains(report)}, not ${owner}.`);
  }
}

function describeDomains(report: TlsReport): string {
  const domains = [...new Set(report.policies.map((policy) => policy.domain))];
  if (domains.length === 0) return 'no policy domain';
  return domains.length > 3 ? `${domains.slice(0, 3).join(', ')} and others` : domains.join(', ');
}
