import type { ListChecksAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (name: string) => `/api/domains/name/${encodeURIComponent(name)}/checks`;

/** GET /api/domains/name/{domainName}/checks: the latest completed scan's checks; fresh for 2 minutes. */
export function getChecksByName(name: string): Promise<ListChecksAnswer> {
  return api.get<ListChecksAnswer>(url(name));
}

export function checksByNameQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getChecksByName(name), staleTime: 2 * 60_000 });
}

export function useChecksByName(name: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...checksByNameQueryOptions(name), enabled });
}
