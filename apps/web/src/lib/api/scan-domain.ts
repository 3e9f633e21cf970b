import type { ApiAnswer } from '@sendwell/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi } from './call-api';

/** POST /api/domains/{id}/scan: 202 with the queued scan's id, which the screen then follows. */
export function scanDomain(domainId: number): Promise<ApiAnswer<'POST /api/domains/:id/scan'>> {
  return callApi('POST /api/domains/:id/scan', { params: { id: domainId } });
}

export function useScanDomain() {
  return useMutation({ mutationFn: scanDomain });
}
