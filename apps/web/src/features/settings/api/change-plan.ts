import type { PaidPlan, UpdateSubscriptionAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/subscription/update {plan}: a paid plan change, effective at the next billing cycle. */
export function changePlan(plan: PaidPlan): Promise<UpdateSubscriptionAnswer> {
  return api.post<UpdateSubscriptionAnswer>('/api/subscription/update', { plan });
}

export function useChangePlan() {
  return useMutation({ mutationFn: changePlan });
}
