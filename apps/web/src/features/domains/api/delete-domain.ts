import type { Ok } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deletedDomainsQueryOptions } from '@/lib/api/get-deleted-domains';
import { domainsQueryOptions } from '@/lib/api/get-domains';

/** DELETE /api/domains/{id}: a soft delete, restorable for 90 days. */
export function deleteDomain(domainId: number): Promise<Ok> {
  return api.delete<Ok>(`/api/domains/${domainId}`);
}

export function useDeleteDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: deletedDomainsQueryOptions().queryKey }),
      ]),
  });
}
