import type { AuthAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /api/auth/verify-email?token=… → {token, user}. A link is used once, so the answer is kept
 * for the page's life and never re-read.
 */
export function verifyEmail(token: string): Promise<AuthAnswer> {
  return api.get<AuthAnswer>(`/api/auth/verify-email?token=${encodeURIComponent(token)}`);
}

export function verifyEmailQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['/api/auth/verify-email', token],
    queryFn: () => verifyEmail(token),
    staleTime: Infinity,
    retry: false,
  });
}

export function useVerifyEmail(token: string | null) {
  return useQuery({ ...verifyEmailQueryOptions(token ?? ''), enabled: Boolean(token) });
}
