import type { ReputationHistoryAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (domainId: number) => `/api/domains/${domainId}/reputation/history`;

/** GET /api/domains/{id}/reputation/history (standard+): scores oldest first, for the chart; fresh 5 minutes. */
export function getReputationHistory(domainId: number): Promise<ReputationHistoryAnswer> {
  return api.get<ReputationHistoryAnswer>(url(domainId));
}

export function reputationHistoryQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [url(domainId)], queryFn: () => getReputationHistory(domainId), staleTime: 5 * 60_000 });
}

export function useReputationHistory(domainId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...reputationHistoryQueryOptions(domainId), enabled });
}
