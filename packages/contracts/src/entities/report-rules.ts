/** Report formats, file names and the screen's constants, without zod. */

/** The formats one report model is rendered to. */
export const reportFormats = ['pdf', 'html', 'json', 'text'] as const;

type ReportFormat = (typeof reportFormats)[number];
export const reportFormatMedia: Record<ReportFormat, { contentType: string; extension: string }> = {
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
  json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
  text: { contentType: 'text/plain; charset=utf-8', extension: 'txt' },
};

/** `sendwell-{domain}-{date}.{ext}`, the date being the report's creation day (UTC, YYYY-MM-DD). */
export function reportFileName(domainName: string, createdAt: string | Date, format: ReportFormat): string {
  const day = new Date(createdAt).toISOString().slice(0, 10);
  const safeDomain = domainName.toLowerCase().replace(/[^a-z0-9.-]/g, '_');
  return `sendwell-${safeDomain}-${day}.${reportFormatMedia[format].extension}`;
}

/** Part 1's bulk delete estimate: 0.02 MB freed per report. */
export const REPORT_SIZE_ESTIMATE_MB = 0.02;

/** The card's summary preview. */
export const REPORT_SUMMARY_PREVIEW_CHARS = 120;

/** Trend windows the full report draws, in days. */
export const REPORT_TREND_WINDOWS = [30, 90] as const;
