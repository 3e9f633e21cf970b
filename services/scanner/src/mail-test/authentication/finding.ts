import type { MailTestFinding } from '@sendwell/contracts';

/** An authentication finding: the group is always 'authentication', information costs nothing. */
export function authenticationFinding(finding: Omit<MailTestFinding, 'group'>): MailTestFinding {
  return { group: 'authentication', ...finding, points: finding.severity === 'info' ? 0 : finding.points };
}
