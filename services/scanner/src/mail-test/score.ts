import type { MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';

export const MAX_SCORE = 10;

/**
 * 10 minus the findings' points, never below 0, to one decimal; `deductions` is the arithmetic the
 * screen shows, one line per finding that cost something (information costs nothing and is left out).
 */
export function scoreOf(findings: readonly MailTestFinding[]): MailTestAnalysis['score'] {
  const deductions = findings.filter((f) => f.points > 0).map((f) => ({ code: f.code, points: f.points }));
  // Sum in tenths: 0.1 + 0.2 in floating point is not 0.3.
  const tenths = deductions.reduce((sum, d) => sum + Math.round(d.points * 10), 0);
  return { value: Math.max(0, MAX_SCORE * 10 - tenths) / 10, deductions };
}
