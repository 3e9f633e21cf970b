import { reportFileName, type Report, type ReportFormat } from '@sendwell/contracts';
import { toast } from '@/components/ui/toast-store';
import { ApiRequestError } from '@/lib/api-client';
import { fetchReportFile } from '../api/reports';
import { saveFile } from '@/lib/save-file';

/** A format the server cannot give for this report (not built, or gone): the spec's summary fallback. */
const unavailable = (error: unknown) => error instanceof ApiRequestError && (error.status === 404 || error.status === 409);

/**
 * Downloads one report in one format with part 1's fallbacks: a failed PDF tries HTML; a format that
 * is not available gives the summary as text; anything else is a failed download. `quiet` leaves the
 * toasts to the caller (bulk downloads count instead). Resolves true when a file was saved.
 */
export async function downloadReport(report: Report, format: ReportFormat, { quiet = false } = {}): Promise<boolean> {
  try {
    const { blob, fileName } = await fetchReportFile(report, format);
    saveFile(blob, fileName);
    if (!quiet) toast({ title: 'Download complete', description: fileName });
    return true;
  } catch (error) {
    if (unavailable(error)) {
      if (!quiet) toast({ title: 'Format not available', description: 'The requested format is not available for this report. Using summary instead.' });
      saveFile(new Blob([`${report.data.domainName}\n\n${report.data.summary}\n`], { type: 'text/plain' }), reportFileName(report.data.domainName, report.createdAt, 'text'));
      return true;
    }
    if (format === 'pdf') {
      if (!quiet) toast({ title: 'PDF download failed', description: 'There was an error processing the PDF. Trying HTML instead.', variant: 'destructive' });
      return downloadReport(report, 'html', { quiet });
    }
    if (!quiet) toast({ title: 'Download failed', description: 'Failed to download the report. Please try again.', variant: 'destructive' });
    return false;
  }
}
