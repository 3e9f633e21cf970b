import type { SampleDomainAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { shouldRetryQuery } from '@/lib/query-client';

/** While the first scan runs (`checks` null), the answer is polled this often. */
export const SAMPLE_POLL_MS = 2_000;

/** GET /api/sample-domains/{domain}: two retries, fresh for 5 minutes (part 2 §7). */
export function getSampleDomain(domain: string): Promise<SampleDomainAnswer> {
  return api.get<SampleDomainAnswer>(`/api/sample-domains/${encodeURIComponent(domain)}`);
}

export function sampleDomainQueryOptions(domain: string) {
  return queryOptions({
    queryKey: [`/api/sample-domains/${encodeURIComponent(domain)}`],
    queryFn: () => getSampleDomain(domain),
    staleTime: 5 * 60_000,
    retry: (count, error) => shouldRetryQuery(count, error) && count < 2,
    // Poll until the scan's checks arrive; then the answer stays fresh for 5 minutes.
    refetchInterval: (query) => (query.state.data && query.state.data.checks === null ? SAMPLE_POLL_MS : false),
  });
}

export function useSampleDomain(domain: string) {
  return useQuery(sampleDomainQueryOptions(domain));
}
