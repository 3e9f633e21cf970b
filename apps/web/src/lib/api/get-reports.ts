import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

/**
 * GET /api/reports, refetched every 120000 ms where it is read (part 1 §7). Shared by the sidebar's
 * quota counter, the bell's new-report detection and the reports screen.
 */
export const REPORTS_URL = apiUrl('GET /api/reports');
export const REPORTS_REFETCH_MS = 120_000;

export function getReports(): Promise<ApiAnswer<'GET /api/reports'>> {
  return callApi('GET /api/reports');
}

export function reportsQueryOptions() {
  return queryOptions({ queryKey: [REPORTS_URL], queryFn: getReports, refetchInterval: REPORTS_REFETCH_MS });
}

export function useReports({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportsQueryOptions(), enabled });
}
