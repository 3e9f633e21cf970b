import { ReportRefusal } from './refusal.js';

/** For tests: the ReportRefusal `run` throws; fails when it throws anything else or nothing. */
export function refusal(run: () => unknown): ReportRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof ReportRefusal) return error;
    throw error;
  }
  throw new Error('not refused');
}
