import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { defaultQueryFn, isClientError } from './api-client';

/** At most 3 retries of a read, none after a 4xx (part 1 §2). */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isClientError(error)) return false;
  return failureCount < 3;
}

/** Freshness defaults of part 1 §9: fresh 60 s, unused cache dropped after 5 min, no focus refetch, no polling. */
export const queryDefaults = {
  queries: {
    queryFn: defaultQueryFn,
    retry: shouldRetryQuery,
    staleTime: 60_000,
    gcTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    refetchInterval: false,
  },
  mutations: { retry: false },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryDefaults });
}
