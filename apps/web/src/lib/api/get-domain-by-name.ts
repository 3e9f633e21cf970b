import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/by-name/:domainName';
const url = (name: string) => apiUrl(CALL, { domainName: name });

/** GET /api/domains/by-name/{domainName}: 404 for a missing domain and for another user's (part 2 §2.2). */
export function getDomainByName(name: string): Promise<ApiAnswer<typeof CALL>> {
  return callApi(CALL, { params: { domainName: name } });
}

export function domainByNameQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getDomainByName(name) });
}

export function useDomainByName(name: string) {
  return useQuery(domainByNameQueryOptions(name));
}
