import type { QueryClient } from '@tanstack/react-query';
import { SubscriptionPage } from '@/features/billing/components/subscription-page';
import { billingConfigQueryOptions } from '@/features/billing/api/billing';
import { deletedDomainsQueryOptions } from '@/lib/api/get-deleted-domains';
import { domainsQueryOptions } from '@/lib/api/get-domains';
import { reportsQueryOptions } from '@/lib/api/get-reports';

/** The user, reports, deleted-domain and domain lists are prefetched here (part 2 §2.10); so is the Stripe key. */
export const clientLoader = (queryClient: QueryClient) => () => {
  void queryClient.prefetchQuery(domainsQueryOptions());
  void queryClient.prefetchQuery(deletedDomainsQueryOptions());
  void queryClient.prefetchQuery(reportsQueryOptions());
  void queryClient.prefetchQuery(billingConfigQueryOptions());
  return null;
};

export function Component() {
  return <SubscriptionPage />;
}
