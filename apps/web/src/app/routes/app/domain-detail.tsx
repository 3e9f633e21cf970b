import { features } from '@sendwell/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useParams, type LoaderFunctionArgs } from 'react-router';
import { checksByNameQueryOptions } from '@/features/domain-detail/api/get-checks-by-name';
import { dnsRecordsQueryOptions } from '@/features/domain-detail/api/get-dns-records';
import { domainByNameQueryOptions } from '@/features/domain-detail/api/get-domain-by-name';
import { reputationHistoryQueryOptions } from '@/features/domain-detail/api/get-reputation-history';
import { DomainDetailPage } from '@/features/domain-detail/components/domain-detail-page';
import { domainReputationQueryOptions } from '@/lib/api/get-domain-reputation';
import { readStoredUser } from '@/lib/auth/session-storage';

/** Prefetches the detail's reads; reputation only where the plan has it (else the call answers 403). */
export const clientLoader =
  (queryClient: QueryClient) =>
  ({ params }: LoaderFunctionArgs) => {
    const name = (params.name ?? '').toLowerCase();
    void queryClient.prefetchQuery(checksByNameQueryOptions(name));
    void queryClient.prefetchQuery(dnsRecordsQueryOptions(name));
    void queryClient.fetchQuery(domainByNameQueryOptions(name)).then(
      (domain) => {
        if (!features.reputation(readStoredUser()?.planType ?? 'free')) return;
        void queryClient.prefetchQuery(domainReputationQueryOptions(domain.id));
        void queryClient.prefetchQuery(reputationHistoryQueryOptions(domain.id));
      },
      () => undefined,
    );
    return null;
  };

export function Component() {
  const { name = '' } = useParams();
  return <DomainDetailPage key={name} name={name.toLowerCase()} />;
}
