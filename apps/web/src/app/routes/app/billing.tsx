import type { QueryClient } from '@tanstack/react-query';
import { billingHistoryQueryOptions } from '@/features/billing/api/billing';
import { BillingHistoryPage } from '@/features/billing/components/billing-history-page';

export const clientLoader = (queryClient: QueryClient) => () => {
  void queryClient.prefetchQuery(billingHistoryQueryOptions());
  return null;
};

export function Component() {
  return <BillingHistoryPage />;
}
