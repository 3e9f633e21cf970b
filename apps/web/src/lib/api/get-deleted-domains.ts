import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

/** GET /api/domains/deleted: deleted domains still restorable (they count toward the limit). */
export const DELETED_DOMAINS_URL = apiUrl('GET /api/domains/deleted');

export function getDeletedDomains(): Promise<ApiAnswer<'GET /api/domains/deleted'>> {
  return callApi('GET /api/domains/deleted');
}

export function deletedDomainsQueryOptions() {
  return queryOptions({ queryKey: [DELETED_DOMAINS_URL], queryFn: getDeletedDomains });
}

export function useDeletedDomains({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...deletedDomainsQueryOptions(), enabled });
}
