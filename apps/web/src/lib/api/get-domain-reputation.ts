import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/:id/reputation';

/** GET /api/domains/{id}/reputation (standard and advanced; 403 otherwise): fresh for 5 minutes (part 1 §7). */
export function getDomainReputation(domainId: number): Promise<ApiAnswer<typeof CALL>> {
  return callApi(CALL, { params: { id: domainId } });
}

export function domainReputationQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [apiUrl(CALL, { id: domainId })], queryFn: () => getDomainReputation(domainId), staleTime: 5 * 60_000 });
}

/** Only asked for when the plan has reputation scores, so no plan sees a 403. */
export function useDomainReputation(domainId: number | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...domainReputationQueryOptions(domainId ?? 0), enabled: enabled && domainId !== undefined });
}
