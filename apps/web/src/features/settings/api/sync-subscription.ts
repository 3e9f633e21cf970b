import type { SyncSubscriptionAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { USER_URL } from '@/lib/auth/api/get-user';
import { useAuth } from '@/lib/auth/auth-provider';

/** POST /api/sync-subscription: for a user with a subscription id who shows as free. */
export function syncSubscription(): Promise<SyncSubscriptionAnswer> {
  return api.post<SyncSubscriptionAnswer>('/api/sync-subscription');
}

/**
 * The answer's plan is applied to the signed-in user at once: the point of a sync is to unlock the
 * paid screens now, not at the next re-read of the user. As on a plan change seen on focus, the
 * plan-dependent reads are then read again.
 */
export function useSyncSubscription() {
  const { user, updateUser } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncSubscription,
    onSuccess: (answer) => {
      if (!user || answer.planType === user.planType) return;
      updateUser({ ...user, planType: answer.planType });
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== USER_URL });
    },
  });
}
