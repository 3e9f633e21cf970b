import { MAIL_FLOW_DEFAULT_DAYS, type MailFlowWindowQuery } from '@sendwell/contracts';

/** A window of UTC days, both ends included, as `YYYY-MM-DD`. */
export interface DayWindow {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

export const isoDayOf = (date: Date): string => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => isoDayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/**
 * The window a query asks for, kept inside what the plan retains: `to` defaults to today, `from` so the
 * window holds 30 days, as the reports' section does. No data is older than the retention or newer than today, so both ends are
 * clamped to [today − retention, today] and `from` never passes `to` (a window wholly outside collapses
 * to its nearest day) — this also bounds the daily series to retention + 1 days.
 */
export function mailFlowWindow(query: MailFlowWindowQuery, retentionDays: number, now: Date): DayWindow {
  const today = isoDayOf(now);
  const earliest = addDays(today, -retentionDays);
  const clamp = (day: string, lo: string, hi: string) => (day < lo ? lo : day > hi ? hi : day);
  const to = clamp(query.to ?? today, earliest, today);
  const from = clamp(query.from ?? addDays(to, 1 - MAIL_FLOW_DEFAULT_DAYS), earliest, to);
  return { from, to };
}

/** Every day of the window, in order. */
export function daysOf(window: DayWindow): string[] {
  const days: string[] = [];
  for (let day = window.from; day <= window.to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A share rounded to 4 places, null when nothing was counted. */
export const share = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
