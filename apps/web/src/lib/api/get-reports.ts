import type { ListReportsAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /api/reports, refetched every 120000 ms where it is read (part 1 §7). Shared by the sidebar's
 * quota counter, the bell's new-report detection and the reports screen.
 */
export const REPORTS_URL = '/api/reports';
export const REPORTS_REFETCH_MS = 120_000;

export function getReports(): Promise<ListReportsAnswer> {
  return api.get<ListReportsAnswer>(REPORTS_URL);
}

export function reportsQueryOptions() {
  return queryOptions({ queryKey: [REPORTS_URL], queryFn: getReports, refetchInterval: REPORTS_REFETCH_MS });
}

export function useReports({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reportsQueryOptions(), enabled });
}
