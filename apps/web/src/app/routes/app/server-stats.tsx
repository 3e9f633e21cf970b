import { ServerStatsPage } from '@/features/server-stats/components/server-stats-page';

export function Component() {
  return <ServerStatsPage />;
}
