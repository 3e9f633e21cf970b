import type { MailTestFinding } from '@sendwell/contracts';

/** A connection finding: the group is always 'connection', information costs nothing. */
export function connectionFinding(finding: Omit<MailTestFinding, 'group'>): MailTestFinding {
  return { group: 'connection', ...finding, points: finding.severity === 'info' ? 0 : finding.points };
}
