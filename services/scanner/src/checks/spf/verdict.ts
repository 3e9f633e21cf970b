import type { CheckStatus, Finding } from '@sendwell/contracts';
import { MAX_DNS_LOOKUPS } from './evaluate.js';
import type { SpfWalk } from './tree.js';

export interface SpfVerdict {
  status: CheckStatus;
  message: string;
  recommendation: string | null;
  /** The message of the finding that decides the status; null when the record is valid. */
  issue: string | null;
}

/** The status of a walked record from its findings (sorted, most severe first). */
export function spfVerdict(walk: SpfWalk, findings: Finding[]): SpfVerdict {
  const hasError = findings.some((f) => f.severity === 'error');
  const hasWarning = findings.some((f) => f.severity === 'warning');
  // A definite fault outranks "unknown"; otherwise a temporary failure means the result is not known.
  const main = walk.temperror && !hasError ? findings.find((f) => f.code === 'SPF_DNS_TEMPERROR') : findings[0];
  if (main && (hasError || hasWarning)) {
    const status = hasError ? 'error' : walk.temperror ? 'unknown' : 'warning';
    return { status, message: main.message, recommendation: main.recommendation ?? null, issue: main.message };
  }
  const message = `The SPF record is valid and uses ${walk.lookupCount} of ${MAX_DNS_LOOKUPS} DNS lookups.`;
  return { status: 'valid', message, recommendation: null, issue: null };
}
