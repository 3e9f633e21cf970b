import type { ServerStats } from '@sendwell/contracts';

/** Uptime as days, hours and minutes (part 2 §2.17), e.g. "3d 4h 12m"; under a minute reads "0m". */
export function uptimeText(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  return [days > 0 ? `${days}d` : null, days > 0 || hours > 0 ? `${hours}h` : null, `${minutes}m`].filter(Boolean).join(' ');
}

/** The pool health badge: the three known labels, anything else Unknown (part 2 §3). */
export function poolHealthDisplay(health: string): { label: string; variant: 'secondary' | 'outline' | 'destructive' | 'default' } {
  switch (health) {
    case 'healthy':
      return { label: 'Healthy', variant: 'secondary' };
    case 'warning':
      return { label: 'Warning', variant: 'outline' };
    case 'critical':
      return { label: 'Critical', variant: 'destructive' };
    default:
      return { label: 'Unknown', variant: 'default' };
  }
}

export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** `YYYY-MM-01` as "Nov 2026" (UTC: a month of the partitions, not of the viewer's zone). */
export function monthLabel(month: string): string {
  return new Date(`${month}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** What a history maintenance run did, in a line; a failed run gives its error. */
export function historyRunSummary(run: NonNullable<ServerStats['history']['lastRun']>): string {
  if (run.error !== null) return run.error;
  const dropped = run.dropped ?? [];
  const created = (run.created ?? []).length;
  const parts = [
    `${created} ${created === 1 ? 'month' : 'months'} created`,
    dropped.length === 0 ? 'none dropped' : `dropped ${dropped.map(monthLabel).join(', ')} in ${Math.round(run.dropMs ?? 0)} ms`,
  ];
  if ((run.carriedScans ?? 0) > 0 || (run.carriedScores ?? 0) > 0) parts.push(`${run.carriedScans ?? 0} last scans and ${run.carriedScores ?? 0} scores carried forward`);
  return parts.join(', ');
}
