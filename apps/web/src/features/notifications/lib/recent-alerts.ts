/** An alert raised this long ago or less is recent (part 1 §4): the bell lists it under "Last 24 hours". */
export const RECENT_ALERT_MS = 24 * 60 * 60_000;

/**
 * Within 24 hours of `now`, the end included. A time ahead of `now` (a clock ahead of the browser's)
 * is recent; an unreadable one is not, so it never claims to be new.
 */
export function isRecentAlert(createdAt: string, now: number): boolean {
  const age = now - Date.parse(createdAt);
  return !Number.isNaN(age) && age <= RECENT_ALERT_MS;
}

/** The bell's alerts (newest first) split into the recent ones and the earlier ones, each keeping its order. */
export function splitRecentAlerts<T extends { createdAt: string }>(alerts: readonly T[], now: number): { recent: T[]; earlier: T[] } {
  const recent: T[] = [];
  const earlier: T[] = [];
  for (const alert of alerts) (isRecentAlert(alert.createdAt, now) ? recent : earlier).push(alert);
  return { recent, earlier };
}
