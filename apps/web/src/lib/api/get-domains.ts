import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

/**
 * GET /api/domains. Shared by the shell's counter and every domain screen, so it lives in `lib/api`
 * (features may not import each other); screens pass their own freshness (part 1 §7: 3 min in the
 * overview, 30 s in the list).
 */
export const DOMAINS_URL = apiUrl('GET /api/domains');

export function getDomains(): Promise<ApiAnswer<'GET /api/domains'>> {
  return callApi('GET /api/domains');
}

export function domainsQueryOptions(staleTime = 60_000) {
  return queryOptions({ queryKey: [DOMAINS_URL], queryFn: getDomains, staleTime });
}

export function useDomains({ enabled = true, staleTime }: { enabled?: boolean; staleTime?: number } = {}) {
  return useQuery({ ...domainsQueryOptions(staleTime), enabled });
}
