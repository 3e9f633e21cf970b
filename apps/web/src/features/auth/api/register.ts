import type { RegisterAnswer, RegisterBody } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/auth/register → {emailVerificationRequired} or {token, user}. */
export function register(body: RegisterBody): Promise<RegisterAnswer> {
  return api.post<RegisterAnswer>('/api/auth/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
