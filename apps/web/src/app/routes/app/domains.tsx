import type { QueryClient } from '@tanstack/react-query';
import { DomainsPage, LIST_DOMAINS_STALE_MS } from '@/features/domains/components/domains-page';
import { deletedDomainsQueryOptions } from '@/lib/api/get-deleted-domains';
import { domainsQueryOptions } from '@/lib/api/get-domains';

export const clientLoader = (queryClient: QueryClient) => () => {
  void queryClient.prefetchQuery(domainsQueryOptions(LIST_DOMAINS_STALE_MS));
  void queryClient.prefetchQuery(deletedDomainsQueryOptions());
  return null;
};

export function Component() {
  return <DomainsPage />;
}
