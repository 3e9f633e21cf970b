import { REPORT_SIZE_ESTIMATE_MB, REPORT_SUMMARY_PREVIEW_CHARS, type Report } from '@sendwell/contracts';

/** The card's preview: the summary cut at 120 characters with an ellipsis (part 1 §6). */
export function summaryPreview(summary: string, max = REPORT_SUMMARY_PREVIEW_CHARS): string {
  const text = summary.trim();
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

export const reportTypeLabel = (type: string): string =>
  ({ full: 'Full report', summary: 'Summary', automated: 'Automated report' })[type] ?? `${type.charAt(0).toUpperCase()}${type.slice(1)} report`;

/** "about 0.06 MB" for three reports (0.02 MB each). */
export function bulkDeleteEstimate(count: number): string {
  const mb = Math.round(count * REPORT_SIZE_ESTIMATE_MB * 100) / 100;
  return `about ${mb.toFixed(2)} MB`;
}

export const isInProgress = (report: Pick<Report, 'status'>) => report.status === 'pending' || report.status === 'generating';

/** The list is read every 2 s while a report is being built, otherwise at the shared 120 s. */
export const PROGRESS_REFETCH_MS = 2_000;
export function reportsRefetchInterval(reports: ReadonlyArray<Pick<Report, 'status'>> | undefined, idleMs: number): number {
  return reports?.some(isInProgress) ? PROGRESS_REFETCH_MS : idleMs;
}

/** The file name of `Content-Disposition: attachment; filename="…"` (or RFC 6266's filename*=UTF-8''…). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? name.replace(/[/\\]/g, '_') : null;
}
