import type { ListChecksAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/domains/{id}/checks: the latest completed scan's checks; fresh for 2 minutes (part 1 §7). */
export function getDomainChecks(domainId: number): Promise<ListChecksAnswer> {
  return api.get<ListChecksAnswer>(`/api/domains/${domainId}/checks`);
}

export function domainChecksQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [`/api/domains/${domainId}/checks`], queryFn: () => getDomainChecks(domainId), staleTime: 2 * 60_000 });
}

export function useDomainChecks(domainId: number) {
  return useQuery(domainChecksQueryOptions(domainId));
}
