import type { SubscriptionStatusAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const URL = '/api/subscription/status';

/** GET /api/subscription/status (paid plans): cancelAtPeriodEnd, currentPeriodEnd. */
export function getSubscriptionStatus(): Promise<SubscriptionStatusAnswer> {
  return api.get<SubscriptionStatusAnswer>(URL);
}

export function subscriptionStatusQueryOptions() {
  return queryOptions({ queryKey: [URL], queryFn: getSubscriptionStatus });
}

export function useSubscriptionStatus({ enabled }: { enabled: boolean }) {
  return useQuery({ ...subscriptionStatusQueryOptions(), enabled });
}
