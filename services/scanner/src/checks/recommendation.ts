import type { Finding } from '@sendwell/contracts';

/** The recommendation of the most severe finding that has one: what a check's verdict tells the user first. */
export function mostSevereRecommendation(findings: readonly Finding[]): string | null {
  for (const severity of ['error', 'warning', 'info'] as const) {
    const found = findings.find((finding) => finding.severity === severity && finding.recommendation);
    if (found?.recommendation) return found.recommendation;
  }
  return null;
}
