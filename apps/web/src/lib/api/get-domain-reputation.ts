import type { ReputationAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/domains/{id}/reputation (standard and advanced; 403 otherwise): fresh for 5 minutes (part 1 §7). */
export function getDomainReputation(domainId: number): Promise<ReputationAnswer> {
  return api.get<ReputationAnswer>(`/api/domains/${domainId}/reputation`);
}

export function domainReputationQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [`/api/domains/${domainId}/reputation`], queryFn: () => getDomainReputation(domainId), staleTime: 5 * 60_000 });
}

/** Only asked for when the plan has reputation scores, so no plan sees a 403. */
export function useDomainReputation(domainId: number | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...domainReputationQueryOptions(domainId ?? 0), enabled: enabled && domainId !== undefined });
}
