import type { ChangePasswordBody } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** PUT /api/user/password: every other session ends; this one stays signed in. */
export function changePassword(body: ChangePasswordBody): Promise<{ message: string }> {
  return api.put<{ message: string }>('/api/user/password', body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
