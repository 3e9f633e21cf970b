import type { RequirementEvidence } from '@sendwell/contracts';
import type { DnsEvidence, SourceEvidence } from './evidence.js';

/** The scanner's statuses saying a record is published and usable (a warning is a weakness, not an absence). */
const PUBLISHED = new Set(['valid', 'success', 'warning']);
/** The statuses saying it is absent or void; 'unknown' (the lookup failed) tells nothing. */
const ABSENT = new Set(['missing', 'error']);

const because = (message: string | null) => (message ? ` ${message}` : '');

/** What the latest completed scan shows of the records the providers ask for: SPF, DKIM keys, DMARC. */
export function dnsEvidence(dns: DnsEvidence, domain: string): SourceEvidence {
  const observedAt = dns.completedAt.toISOString();
  const evidence = (status: 'met' | 'unmet', detail: string): RequirementEvidence => ({ source: 'dns', status, detail, observedAt });
  const out: SourceEvidence = {};

  const { spf, dkim, dmarc } = dns;
  if (spf && PUBLISHED.has(spf.status) && spf.record) {
    out.spf = evidence('met', `${domain} publishes an SPF record: ${spf.record}`);
  } else if (spf && ABSENT.has(spf.status)) {
    out.spf = evidence('unmet', spf.status === 'missing' ? `${domain} publishes no SPF record.` : `${domain}'s SPF record is invalid, so receivers treat SPF as failing.${because(spf.message)}`);
  }

  if (dkim && PUBLISHED.has(dkim.status) && dkim.keys.length > 0) {
    out.dkim = evidence('met', `A DKIM key is published for ${domain} (selector${dkim.keys.length === 1 ? '' : 's'} ${dkim.keys.join(', ')}).`);
  } else if (dkim && (ABSENT.has(dkim.status) || (dkim.status === 'warning' && dkim.keys.length === 0))) {
    // A warning with no usable key is the scanner's "only revoked keys".
    out.dkim = evidence('unmet', dkim.status === 'missing' ? `No DKIM key was found for ${domain} at the selectors the scan probed.` : `No usable DKIM key is published for ${domain}.${because(dkim.message)}`);
  }

  if (dmarc && PUBLISHED.has(dmarc.status) && dmarc.policy) {
    const from = dmarc.inherited ? ' (inherited from the organisational domain)' : '';
    out.dmarc = evidence('met', `A DMARC record with p=${dmarc.policy} applies to ${domain}${from}${dmarc.record ? `: ${dmarc.record}` : '.'}`);
  } else if (dmarc && ABSENT.has(dmarc.status)) {
    out.dmarc = evidence('unmet', dmarc.status === 'missing' ? `${domain} publishes no DMARC record.` : `${domain}'s DMARC record is void, so receivers apply none.${because(dmarc.message)}`);
  }
  return out;
}
