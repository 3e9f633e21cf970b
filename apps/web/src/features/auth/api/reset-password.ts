import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auth/reset-password-with-token {token, newPassword}. */
export function resetPassword(body: { token: string; newPassword: string }): Promise<{ message: string }> {
  return api.post<{ message: string }>('/api/auth/reset-password-with-token', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
