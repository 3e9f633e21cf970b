import type { MailTestFinding, MailTestGroup } from '@sendwell/contracts';

/** A finding of `group`; information costs nothing, so `points` is forced to 0 for it. */
export function finding(group: MailTestGroup, fields: Omit<MailTestFinding, 'group'>): MailTestFinding {
  return { group, ...fields, points: fields.severity === 'info' ? 0 : fields.points };
}
