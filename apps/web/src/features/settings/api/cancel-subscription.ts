import type { CancelSubscriptionAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { subscriptionStatusQueryOptions } from './get-subscription-status';

/** POST /api/subscription/cancel: access continues to the period end (answer has cancelationDate). */
export function cancelSubscription(): Promise<CancelSubscriptionAnswer> {
  return api.post<CancelSubscriptionAnswer>('/api/subscription/cancel');
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryOptions().queryKey }),
  });
}
