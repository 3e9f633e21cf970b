import type { ApiAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiUrl, callApi } from './call-api';

const CALL = 'GET /api/domains/name/:domainName/checks';
const url = (name: string) => apiUrl(CALL, { domainName: name });

/** GET /api/domains/name/{domainName}/checks: the latest completed scan's checks; fresh for 2 minutes. */
export function getChecksByName(name: string): Promise<ApiAnswer<typeof CALL>> {
  return callApi(CALL, { params: { domainName: name } });
}

export function checksByNameQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getChecksByName(name), staleTime: 2 * 60_000 });
}

export function useChecksByName(name: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...checksByNameQueryOptions(name), enabled });
}
