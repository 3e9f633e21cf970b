import type { ListDeletedDomainsAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/domains/deleted: deleted domains still restorable (they count toward the limit). */
export const DELETED_DOMAINS_URL = '/api/domains/deleted';

export function getDeletedDomains(): Promise<ListDeletedDomainsAnswer> {
  return api.get<ListDeletedDomainsAnswer>(DELETED_DOMAINS_URL);
}

export function deletedDomainsQueryOptions() {
  return queryOptions({ queryKey: [DELETED_DOMAINS_URL], queryFn: getDeletedDomains });
}

export function useDeletedDomains({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...deletedDomainsQueryOptions(), enabled });
}
