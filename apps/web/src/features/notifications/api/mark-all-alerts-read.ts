import type { MarkAllAlertsReadAnswer } from '@sendwell/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { alertsQueryOptions } from './get-alerts';

/** POST /api/alerts/mark-all-read, then the alerts are re-read. */
export function markAllAlertsRead(): Promise<MarkAllAlertsReadAnswer> {
  return api.post<MarkAllAlertsReadAnswer>('/api/alerts/mark-all-read');
}

export function useMarkAllAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllAlertsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertsQueryOptions().queryKey }),
  });
}
