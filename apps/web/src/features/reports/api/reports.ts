import {
  reportFileName,
  type DeleteReportAnswer,
  type GenerateReportsAnswer,
  type GenerateReportsBody,
  type Report,
  type ReportFormat,
} from '@sendwell/contracts';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiRequestError, api, requestHeaders } from '@/lib/api-client';
import { reportsQueryOptions, REPORTS_REFETCH_MS, REPORTS_URL } from '@/lib/api/get-reports';
import { fileNameFromDisposition, reportsRefetchInterval } from '../lib/report-display';

/** The shared reports query (sidebar counter, bell), read faster while a report is being built. */
export function useReportsList() {
  return useQuery({ ...reportsQueryOptions(), refetchInterval: (query) => reportsRefetchInterval(query.state.data, REPORTS_REFETCH_MS) });
}

export const invalidateReports = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: reportsQueryOptions().queryKey });

export const generateReports = (body: GenerateReportsBody) => api.post<GenerateReportsAnswer>(`${REPORTS_URL}/generate`, body);
export const deleteReport = (id: number) => api.delete<DeleteReportAnswer>(`${REPORTS_URL}/${id}`);

export const reportFileUrl = (id: number, format: ReportFormat, inline = false) => `${REPORTS_URL}/${id}/download?format=${format}${inline ? '&inline=1' : ''}`;

/** One format of a report as a file: its bytes and the server's file name. */
export async function fetchReportFile(report: Report, format: ReportFormat): Promise<{ blob: Blob; fileName: string }> {
  const res = await fetch(reportFileUrl(report.id, format), { credentials: 'include', headers: requestHeaders(false) });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiRequestError(`${res.status}: ${text || res.statusText}`, res.status, text, null);
  }
  const fileName = fileNameFromDisposition(res.headers.get('content-disposition')) ?? reportFileName(report.data.domainName, report.createdAt, format);
  return { blob: await res.blob(), fileName };
}
