import { features } from '@sendwell/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { historyQueryOptions } from '@/features/history/api/history';
import { HistoryPage } from '@/features/history/components/history-page';
import { readStoredUser } from '@/lib/auth/session-storage';

/** Prefetches the history overview (every domain with its newest scans) where the plan has it (else the call answers 403). */
export const clientLoader = (queryClient: QueryClient) => () => {
  if (features.history(readStoredUser()?.planType ?? 'free')) void queryClient.prefetchQuery(historyQueryOptions());
  return null;
};

export function Component() {
  return <HistoryPage />;
}
