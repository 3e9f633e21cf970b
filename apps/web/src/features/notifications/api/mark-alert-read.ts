import type { MarkAlertReadAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { alertsQueryOptions } from './get-alerts';

/** POST /api/alerts/{id}/mark-read, then the alerts are re-read. */
export function markAlertRead(id: number): Promise<MarkAlertReadAnswer> {
  return api.post<MarkAlertReadAnswer>(`/api/alerts/${id}/mark-read`);
}

export function useMarkAlertRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAlertRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertsQueryOptions().queryKey }),
  });
}
