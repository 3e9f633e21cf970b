import type { Domain } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const url = (name: string) => `/api/domains/by-name/${encodeURIComponent(name)}`;

/** GET /api/domains/by-name/{domainName}: 404 for a missing domain and for another user's (part 2 §2.2). */
export function getDomainByName(name: string): Promise<Domain> {
  return api.get<Domain>(url(name));
}

export function domainByNameQueryOptions(name: string) {
  return queryOptions({ queryKey: [url(name)], queryFn: () => getDomainByName(name) });
}

export function useDomainByName(name: string) {
  return useQuery(domainByNameQueryOptions(name));
}
