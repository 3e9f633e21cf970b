import { features } from '@sendwell/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { checksByNameQueryOptions } from '@/lib/api/get-checks-by-name';
import { dnsRecordsQueryOptions } from '@/lib/api/get-dns-records';
import { domainByNameQueryOptions } from '@/lib/api/get-domain-by-name';
import { reputationHistoryQueryOptions } from '@/features/domain-detail/api/get-reputation-history';
import { DomainDetailPage } from '@/features/domain-detail/components/domain-detail-page';
import { domainReputationQueryOptions } from '@/lib/api/get-domain-reputation';
import { readStoredUser } from '@/lib/auth/session-storage';
import type { RouteLoaderArgs } from '../../lazy-route';

/** Prefetches the detail's reads where the plan has them; reputation only on its plans (else the calls answer 403). */
export const clientLoader =
  (queryClient: QueryClient) =>
  ({ params }: RouteLoaderArgs) => {
    const name = (params.name ?? '').toLowerCase();
    if (!features.domainDetail(readStoredUser()?.planType ?? 'free')) return null;
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
