import type { PaidPlan, UpdateSubscriptionAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useRefreshUser } from '@/lib/hooks/use-refresh-user';
import { subscriptionStatusQueryOptions } from './get-subscription-status';

/** POST /api/subscription/update {plan}: an upgrade now (charged pro rata), another change at the next billing cycle. */
export function changePlan(plan: PaidPlan): Promise<UpdateSubscriptionAnswer> {
  return api.post<UpdateSubscriptionAnswer>('/api/subscription/update', { plan });
}

/** An upgrade changes the plan at once: the user and the subscription status are re-read. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  const refreshUser = useRefreshUser();
  return useMutation({
    mutationFn: changePlan,
    onSuccess: () => Promise.all([refreshUser(), queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryOptions().queryKey })]),
  });
}
