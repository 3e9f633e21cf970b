import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/:id/checks';

/** GET /api/domains/{id}/checks: the latest completed scan's checks; fresh for 2 minutes (part 1 §7). */
export function getDomainChecks(domainId: number): Promise<ApiAnswer<typeof CALL>> {
  return callApi(CALL, { params: { id: domainId } });
}

export function domainChecksQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [apiUrl(CALL, { id: domainId })], queryFn: () => getDomainChecks(domainId), staleTime: 2 * 60_000 });
}

export function useDomainChecks(domainId: number) {
  return useQuery(domainChecksQueryOptions(domainId));
}
