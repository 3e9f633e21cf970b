import type { BlacklistCheckAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/domains/{id}/check: queues a new check run whose progress the section follows. */
export function runBlacklistCheck(domainId: number): Promise<BlacklistCheckAnswer> {
  return api.post<BlacklistCheckAnswer>(`/api/domains/${domainId}/check`);
}

export function useRunBlacklistCheck() {
  return useMutation({ mutationFn: runBlacklistCheck });
}
