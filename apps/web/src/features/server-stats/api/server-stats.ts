import type { ServerStatsAnswer } from '@sendwell/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const SERVER_STATS_URL = '/api/admin/server-stats';
/** Part 2 §9: the page refreshes itself every 30 s while auto refresh is on. */
export const AUTO_REFRESH_MS = 30_000;

/** GET /api/admin/server-stats: the administrator only (403 for anyone else). */
export function useServerStats({ autoRefresh }: { autoRefresh: boolean }) {
  return useQuery({
    queryKey: [SERVER_STATS_URL],
    queryFn: () => api.get<ServerStatsAnswer>(SERVER_STATS_URL),
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
    retry: false,
  });
}
