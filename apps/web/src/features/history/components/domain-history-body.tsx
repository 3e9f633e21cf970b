import { useCallback, useMemo } from 'react';
import { ReadError } from '@/components/ui/read-error';
import { Skeleton } from '@/components/ui/skeleton';
import { useDomainScans, useHistoryDays } from '../api/history';
import { groupPages } from '../lib/history';
import { readFailureText } from '../lib/read-failure';
import { HistoryTimeline } from './history-timeline';
import { ScanList } from './scan-list';

/**
 * An expanded history card: the timeline, drawn from the domain's daily summary, over the windowed
 * list of its scans, read a page at a time as the list is scrolled (issue 28).
 */
export default function DomainHistoryBody({ domainId, domainName, scanCount }: { domainId: number; domainName: string; scanCount: number }) {
  const days = useHistoryDays(domainId);
  const scans = useDomainScans(domainId);
  const pages = scans.data?.pages;
  const groups = useMemo(() => groupPages(pages), [pages]);
  const loadedScans = useMemo(() => (pages ?? []).reduce((n, p) => n + p.scans.length, 0), [pages]);
  const { fetchNextPage } = scans;
  const loadMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  return (
    <>
      {days.isPending ? (
        <Skeleton className="h-40 w-full" data-loading />
      ) : days.isError ? (
        <p className="text-sm text-muted-foreground">The timeline could not be loaded. {readFailureText(days.error)}</p>
      ) : (
        <HistoryTimeline days={days.data.days} domainName={domainName} />
      )}
      {scans.data === undefined ? (
        scans.isError ? (
          <ReadError title="Failed to load the scans" message={readFailureText(scans.error)} retrying={scans.isFetching} onRetry={() => void scans.refetch()} />
        ) : (
          <p role="status" data-loading className="text-sm text-muted-foreground">
            Loading scans…
          </p>
        )
      ) : groups.length === 0 ? (
        <p className="text-sm text-muted-foreground">No completed scans yet. Run a scan from the domain’s page.</p>
      ) : (
        <ScanList
          groups={groups}
          domainName={domainName}
          paging={{
            loadedScans,
            totalScans: scanCount,
            hasNextPage: scans.hasNextPage,
            isFetching: scans.isFetching,
            isFetchingNextPage: scans.isFetchingNextPage,
            failed: scans.isFetchNextPageError,
            failure: scans.isFetchNextPageError ? readFailureText(scans.error) : undefined,
            loadMore,
          }}
        />
      )}
    </>
  );
}
