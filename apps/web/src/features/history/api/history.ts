import type { DomainHistoryAnswer, LastScanAnswer, ScanDetailAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/domain-checks/history (paid plans): every active and restorable deleted domain with its scans. */
export const HISTORY_URL = '/api/domain-checks/history';

export function historyQueryOptions() {
  return queryOptions({ queryKey: [HISTORY_URL], queryFn: () => api.get<DomainHistoryAnswer>(HISTORY_URL), staleTime: 60_000 });
}

export function useDomainHistory({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...historyQueryOptions(), enabled });
}

/** GET /api/domain-checks/{scanId}: one scan of the user's with its checks; a scan never changes once done. */
export function scanDetailQueryOptions(scanId: string) {
  const url = `/api/domain-checks/${encodeURIComponent(scanId)}`;
  return queryOptions({ queryKey: [url], queryFn: () => api.get<ScanDetailAnswer>(url), staleTime: Infinity, retry: false });
}

export function useScanDetail(scanId: string | null) {
  return useQuery({ ...scanDetailQueryOptions(scanId ?? ''), enabled: scanId !== null });
}

/** GET /api/domains/{id}/last-scan: the summary kept for a domain, also once it is deleted. */
export function useLastScan(domainId: number | null) {
  const url = `/api/domains/${domainId ?? 0}/last-scan`;
  return useQuery({ queryKey: [url], queryFn: () => api.get<LastScanAnswer>(url), enabled: domainId !== null, retry: false });
}
