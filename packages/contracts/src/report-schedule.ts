/**
 * Automated reports' periods (monthly for basic, fortnightly for standard, weekly for advanced, from
 * `planRules`). A period has a stable key, so "one report per domain per period" is a unique index
 * and a schedule that runs twice in one period makes one report. Pure, no I/O; UTC throughout.
 */
import { planRules, isPlanType } from './plans.js';

export type ReportCadence = 'monthly' | 'fortnightly' | 'weekly';

/** The schedule runs hourly at this minute; the first run of a period makes its reports. */
export const AUTOMATED_REPORTS_MINUTE = 15;

const DAY_MS = 86_400_000;
/** Monday 1970-01-05, the first ISO week start after the epoch: weeks are counted from it. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

export interface ReportPeriod {
  cadence: ReportCadence;
  /** 'monthly:2026-11', 'fortnightly:2026-11-16', 'weekly:2026-11-23' (the period's first day). */
  key: string;
  start: Date;
  /** Exclusive. */
  end: Date;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function reportPeriod(cadence: ReportCadence, at: Date): ReportPeriod {
  if (cadence === 'monthly') {
    const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
    const end = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
    return { cadence, key: `monthly:${day(start).slice(0, 7)}`, start: new Date(start), end: new Date(end) };
  }
  const weeks = cadence === 'weekly' ? 1 : 2;
  const length = weeks * 7 * DAY_MS;
  const start = FIRST_MONDAY_MS + Math.floor((at.getTime() - FIRST_MONDAY_MS) / length) * length;
  return { cadence, key: `${cadence}:${day(start)}`, start: new Date(start), end: new Date(start + length) };
}

/** The plan's cadence, or null when it gets no automated reports. */
export function reportCadence(plan: string): ReportCadence | null {
  return isPlanType(plan) ? planRules[plan].automatedReports : null;
}
