import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronRight } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatUserDateTime } from '@/lib/display';
import { useUser } from '@/lib/auth/auth-provider';
import { scanCountLabel, scanTimestampParam, shouldLoadMore, unchangedNote, whatChanged, type ScanGroup } from '../lib/history';

/** Most rows; a row whose badges wrap (on a phone) is measured as it is drawn. */
const ROW_HEIGHT = 76;
const healthBadge = { healthy: 'secondary', warning: 'outline', critical: 'destructive' } as const;
const healthLabel = { healthy: 'Healthy', warning: 'Warning', critical: 'Critical' } as const;

export const scanAtTimePath = (domainName: string, createdAt: string) => `/domain/${encodeURIComponent(domainName)}/${scanTimestampParam(createdAt)}`;
/** The route of one historical scan by its id (the router's 'domain-history/:name/scan/:scanId'). */
export const scanDetailPath = (domainName: string, scanId: string) => `/domain-history/${encodeURIComponent(domainName)}/scan/${encodeURIComponent(scanId)}`;

/** Where the list stands with its pages (`useInfiniteQuery` of the domain's scans). */
export interface ScanListPaging {
  /** Scans loaded so far (the rows are their groups by second). */
  loadedScans: number;
  /** The domain's scan count, as its card says. */
  totalScans?: number;
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  /** The last next page failed: no more automatic loading until the user retries. */
  failed: boolean;
  /** What the failed page's read said ('Failed to load: 503', 'Network error occurred'). */
  failure?: string;
  loadMore: () => void;
}

/**
 * The scans of one domain, newest first, each leading to its detail by time (part 2 §2.3) and by id (§2.4). The list
 * scrolls at 24rem and only the rows in view are in the page, so a thousand scans cost a dozen rows;
 * the older pages load as the user scrolls near the end of the loaded rows (issue 28).
 */
export function ScanList({ groups, domainName, paging }: { groups: readonly ScanGroup[]; domainName: string; paging: ScanListPaging }) {
  const user = useUser();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: groups.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 6 });
  const items = virtual.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index;
  const { hasNextPage, isFetching, failed, loadMore } = paging;
  useEffect(() => {
    if (shouldLoadMore({ lastIndex, loaded: groups.length, hasNextPage, isFetching, failed })) loadMore();
  }, [lastIndex, groups.length, hasNextPage, isFetching, failed, loadMore]);
  return (
    <div ref={scrollRef} className="max-h-96 overflow-y-auto rounded-lg border" data-testid="scan-list" tabIndex={0} aria-label={`Scans of ${domainName}`} role="region">
      <ul className="relative" style={{ height: virtual.getTotalSize() }} aria-label={scanCountLabel(paging.loadedScans, paging.totalScans, !hasNextPage)}>
        {virtual.getVirtualItems().map((item) => {
          const group = groups[item.index]!;
          const changes = whatChanged(group, groups[item.index + 1]);
          const when = formatUserDateTime(group.scan.createdAt, user.dateFormat, user.timezone);
          return (
            <li
              key={group.second}
              ref={virtual.measureElement}
              data-index={item.index}
              className="absolute inset-x-0 top-0 border-b"
              style={{ transform: `translateY(${item.start}px)` }}
              data-testid="scan-row"
            >
              <div className="flex items-stretch">
                <Link
                  to={scanAtTimePath(domainName, group.scan.createdAt)}
                  className="flex min-h-[76px] min-w-0 flex-1 items-center px-3 py-2 hover:bg-muted/60 focus-visible:bg-muted/60 focus-visible:outline-none"
                >
                  <div className="min-w-0 flex-1 space-y-1">
                    <div className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="font-medium">{when}</span>
                      <Badge variant={healthBadge[group.health]}>{healthLabel[group.health]}</Badge>
                      {item.index === 0 ? <Badge variant="default">Latest</Badge> : null}
                    </div>
                    <p className="text-xs text-muted-foreground">
                      {group.checkCount} checks · {group.passedCount}/{group.checkCount} checks passed
                      {group.score !== null ? ` · score ${group.score}` : ''}
                    </p>
                    <p className="truncate text-xs" title={changes.join('; ')} data-testid="scan-changes">
                      {changes.length > 0 ? changes.join(' · ') : <span className="text-muted-foreground">{unchangedNote(item.index, groups.length, hasNextPage)}</span>}
                    </p>
                  </div>
                </Link>
                {/* The row opens the scan at its time (part 2 §2.3); this opens the scan itself, by id (§2.4). */}
                <Link
                  to={scanDetailPath(domainName, group.scan.id)}
                  aria-label={`Details of the scan of ${when}`}
                  className="flex shrink-0 items-center gap-1 px-3 text-xs font-medium text-primary hover:bg-muted/60 hover:underline focus-visible:bg-muted/60 focus-visible:outline-none"
                  data-testid="scan-detail-link"
                >
                  Details
                  <ChevronRight className="h-4 w-4" aria-hidden="true" />
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
      {hasNextPage ? (
        <div className="flex min-h-12 items-center justify-center gap-2 border-t px-3 py-2 text-xs text-muted-foreground" data-testid="scan-list-more">
          {failed ? (
            <>
              <span role="alert">Older scans could not be loaded.{paging.failure ? ` ${paging.failure}` : ''}</span>
              <Button size="sm" variant="outline" onClick={loadMore}>
                Retry
              </Button>
            </>
          ) : (
            <span role="status">{paging.isFetchingNextPage ? 'Loading more scans…' : 'Older scans load as you scroll'}</span>
          )}
        </div>
      ) : null}
    </div>
  );
}
