import type { CheckStatus, Finding } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { AppliedPolicy, PolicySource } from './findings.js';

export interface DmarcVerdict {
  status: CheckStatus;
  message: string;
  recommendation: string | null;
}

/** An error in the record decides; otherwise the policy's strength and any warnings do. */
export function dmarcVerdict(findings: Finding[], applied: AppliedPolicy, source: PolicySource, orgDomain: string): DmarcVerdict {
  const errors = findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) return errorVerdict(errors, findings);
  return policyVerdict(findings, applied, source, orgDomain);
}

/** The errors, with the tags they are about. */
function errorVerdict(errors: Finding[], findings: Finding[]): DmarcVerdict {
  const tags = [...new Set(errors.map((finding) => finding.tag).filter((tag): tag is string => typeof tag === 'string'))];
  return {
    status: 'error',
    message: `The DMARC record has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}${tags.length > 0 ? ` (${tags.map((tag) => `${tag}=`).join(', ')})` : ''}.`,
    recommendation: mostSevereRecommendation(findings),
  };
}

function policyVerdict(findings: Finding[], { effectivePolicy, pct, testingPolicy }: AppliedPolicy, source: PolicySource, orgDomain: string): DmarcVerdict {
  const warnings = findings.some((finding) => finding.severity === 'warning');
  const from = source === 'organizational' ? ` (inherited from ${orgDomain})` : '';
  const testing = testingPolicy ? `, in testing mode (t=y: ${testingPolicy} at receivers that follow DMARCbis)` : '';
  return {
    status: effectivePolicy === 'none' || warnings ? 'warning' : 'valid',
    message:
      effectivePolicy === 'none'
        ? `DMARC is in monitoring mode only (policy none${source === 'organizational' ? `, inherited from ${orgDomain}` : ''}): forged mail is still delivered.`
        : `DMARC policy is ${effectivePolicy ?? 'none'}${pct < 100 ? ` for ${pct}% of failing mail` : ''}${from}${testing}${warnings ? ', with issues to fix' : ''}.`,
    recommendation: warnings ? mostSevereRecommendation(findings) : null,
  };
}
