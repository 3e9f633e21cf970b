import { isDomainOrBelow, normaliseDomain } from '../domain-names.js';
import { refuse } from '../refusal.js';
import type { AggregateHeader } from './types.js';

/**
 * Refuses a report about a domain other than the one its address was issued for: a per-domain
 * address (or an upload under a domain) must not let anyone file reports into another domain.
 * Subdomains are accepted, since a receiver reports the policy it applied, which for mail from a
 * subdomain is the organisational domain's or the subdomain's own (RFC 7489 §6.6.3).
 */
export function assertPolicyDomain(report: AggregateHeader, issuedFor: string): void {
  const issued = normaliseDomain(issuedFor);
  const domain = normaliseDomain(report.policy.domain);
  if (issued !== '' && isDomainOrBelow(domain, issued)) return;
  refuse('POLICY_DOMAIN_MISMATCH', `The report is about ${domain.slice(0, 255)}, not ${issued.slice(0, 255) || 'the domain'} it was sent for, so it was not read.`);
}
