import { useCallback } from 'react';
import { getUser } from '@/lib/auth/api/get-user';
import { useAuth } from '@/lib/auth/auth-provider';

/** Re-reads the signed-in user (the plan after a payment) into the session. */
export function useRefreshUser(): () => Promise<void> {
  const { updateUser } = useAuth();
  return useCallback(async () => updateUser(await getUser()), [updateUser]);
}
