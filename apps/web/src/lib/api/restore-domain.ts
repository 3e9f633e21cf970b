import type { ApiAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUrl, callApi } from '@/lib/api/call-api';
import { deletedDomainsQueryOptions } from '@/lib/api/get-deleted-domains';
import { domainsQueryOptions } from '@/lib/api/get-domains';

/**
 * POST /api/domains/restore {name}; then both domain lists and the history are refreshed (part 1 §7):
 * every history query's key starts with the history call's URL (the overview, each domain's pages of
 * scans, the scans at a time and the timeline's days), so the one prefix refreshes them all.
 */
export function restoreDomain(name: string): Promise<ApiAnswer<'POST /api/domains/restore'>> {
  return callApi('POST /api/domains/restore', { body: { name } });
}

export function useRestoreDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreDomain,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: deletedDomainsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: [apiUrl('GET /api/domain-checks/history')] }),
      ]),
  });
}
