import type { AuthAnswer, LoginBody } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auth/login → {token, user}. */
export function login(body: LoginBody): Promise<AuthAnswer> {
  return api.post<AuthAnswer>('/api/auth/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
