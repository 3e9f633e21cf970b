import type { SyncSubscriptionAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/sync-subscription: for a user with a subscription id who shows as free. */
export function syncSubscription(): Promise<SyncSubscriptionAnswer> {
  return api.post<SyncSubscriptionAnswer>('/api/sync-subscription');
}

export function useSyncSubscription() {
  return useMutation({ mutationFn: syncSubscription });
}
