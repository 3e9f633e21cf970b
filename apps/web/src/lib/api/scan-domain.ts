import type { ScanDomainAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /api/domains/{id}/scan: 202 with the queued scan's id, which the screen then follows. */
export function scanDomain(domainId: number): Promise<ScanDomainAnswer> {
  return api.post<ScanDomainAnswer>(`/api/domains/${domainId}/scan`);
}

export function useScanDomain() {
  return useMutation({ mutationFn: scanDomain });
}
