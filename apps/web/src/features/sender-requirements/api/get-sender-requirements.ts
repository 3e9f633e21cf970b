import type { SenderRequirements } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (domainId: number) => `/api/domains/${domainId}/sender-requirements`;

/**
 * GET /api/domains/{id}/sender-requirements (issue 26, paid plans): the kept verdict. It changes after
 * a scan, a report or a test message at most, so a minute of freshness spares refetches on every focus.
 */
export function getSenderRequirements(domainId: number): Promise<SenderRequirements> {
  return api.get<SenderRequirements>(url(domainId));
}

export function senderRequirementsQueryOptions(domainId: number) {
  return queryOptions({ queryKey: [url(domainId)], queryFn: () => getSenderRequirements(domainId), staleTime: 60_000 });
}

export function useSenderRequirements(domainId: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...senderRequirementsQueryOptions(domainId), enabled });
}
