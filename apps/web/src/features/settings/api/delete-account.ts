import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { useAuth } from '@/lib/auth/auth-provider';

/** DELETE /api/user with the password: the subscription ends and every row of the account goes. */
export function deleteAccount(password: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('DELETE', '/api/user', { password });
}

export function useDeleteAccount() {
  const { signOut } = useAuth();
  // The server has ended every session; signing out clears the local one and the cache.
  return useMutation({ mutationFn: deleteAccount, onSuccess: () => signOut() });
}
