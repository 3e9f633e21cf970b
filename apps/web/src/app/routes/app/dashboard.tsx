import type { QueryClient } from '@tanstack/react-query';
import { DashboardPage, OVERVIEW_DOMAINS_STALE_MS } from '@/features/dashboard/components/dashboard-page';
import { deletedDomainsQueryOptions } from '@/lib/api/get-deleted-domains';
import { domainsQueryOptions } from '@/lib/api/get-domains';

/** Starts the domain reads while the screen's code loads. */
export const clientLoader = (queryClient: QueryClient) => () => {
  void queryClient.prefetchQuery(domainsQueryOptions(OVERVIEW_DOMAINS_STALE_MS));
  void queryClient.prefetchQuery(deletedDomainsQueryOptions());
  return null;
};

export function Component() {
  return <DashboardPage />;
}
