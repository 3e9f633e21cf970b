import type { ListAlertsAnswer } from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/alerts: advanced plan only; refetch every 30 s, fresh for 20 s; the bell shows 5. */
export const ALERTS_URL = '/api/alerts';

export function getAlerts(): Promise<ListAlertsAnswer> {
  return api.get<ListAlertsAnswer>(ALERTS_URL);
}

export function alertsQueryOptions() {
  return queryOptions({ queryKey: [ALERTS_URL], queryFn: getAlerts, staleTime: 20_000, refetchInterval: 30_000 });
}

export function useAlerts({ enabled }: { enabled: boolean }) {
  return useQuery({ ...alertsQueryOptions(), enabled });
}
