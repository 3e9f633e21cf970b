import type { ApiAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from './call-api';
import { deletedDomainsQueryOptions } from './get-deleted-domains';
import { domainsQueryOptions } from './get-domains';

/** POST /api/domains {name}: shared by the dashboard overview and the domains page. */
export function createDomain(name: string): Promise<ApiAnswer<'POST /api/domains'>> {
  return callApi('POST /api/domains', { body: { name } });
}

/** On success both domain lists are refreshed (a re-added deletion leaves the deleted list). */
export function useCreateDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDomain,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: deletedDomainsQueryOptions().queryKey }),
      ]),
  });
}
