import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/:id/scans/:scanId';
type ScanStatusAnswer = ApiAnswer<typeof CALL>;

/** How often a started scan is asked about while it is queued or running. */
export const SCAN_POLL_MS = 1_000;

/** GET /api/domains/{id}/scans/{scanId}: one scan's progress (queued → running → completed, or failed). */
export function getScanStatus(domainId: number, scanId: string): Promise<ScanStatusAnswer> {
  return callApi(CALL, { params: { id: domainId, scanId } });
}

export const isScanFinished = (status: string | undefined) => status === 'completed' || status === 'failed';

export function scanStatusQueryOptions(domainId: number, scanId: string) {
  return queryOptions({
    queryKey: [apiUrl(CALL, { id: domainId, scanId })],
    queryFn: () => getScanStatus(domainId, scanId),
    staleTime: 0,
    refetchInterval: (query) => (isScanFinished(query.state.data?.status) ? false : SCAN_POLL_MS),
  });
}

/**
 * Follows a started scan until it finishes, then refreshes every read of the domain's results
 * (lists, checks, DNS records, reputation): the results arrive when the scan says so, not after a
 * guessed delay. `scanId` null means nothing to follow.
 */
export function useScanProgress(domainId: number | undefined, scanId: string | null, onFinished?: (scan: ScanStatusAnswer) => void) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...scanStatusQueryOptions(domainId ?? 0, scanId ?? ''),
    enabled: domainId !== undefined && scanId !== null,
  });
  const done = useRef<string | null>(null);
  const callback = useRef(onFinished);
  callback.current = onFinished;
  const scan = query.data;
  useEffect(() => {
    if (!scan || !isScanFinished(scan.status) || done.current === scan.id) return;
    done.current = scan.id;
    void queryClient
      .invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('/api/domains') && !q.queryKey[0].includes('/scans/') })
      .then(() => callback.current?.(scan));
  }, [scan, queryClient]);
  return query;
}
