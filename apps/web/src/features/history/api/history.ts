import { HISTORY_DOMAIN_PAGE_DEFAULT, type DomainHistoryAnswer, type HistoryDaysAnswer, type LastScanAnswer, type ScanDetailAnswer } from '@sendwell/contracts';
import { focusManager, infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { SCAN_MATCH_WINDOW_MS, timelineFrom, toDomainPage, type DomainScanPage } from '../lib/history';

/**
 * GET /api/domain-checks/history (paid plans), paged (issue 28). Every history query's key starts with
 * this URL, so invalidating `[HISTORY_URL]` (as a restore does) refreshes the overview, the domains'
 * pages, the scans-at-a-time and the timelines' days alike.
 */
export const HISTORY_URL = '/api/domain-checks/history';

/** The history call's URL with its query: only the parameters given. */
export function historyUrl(query: { domainId?: number; before?: string | null; to?: string; limit?: number } = {}): string {
  const params = new URLSearchParams();
  if (query.domainId !== undefined) params.set('domainId', String(query.domainId));
  if (query.before) params.set('before', query.before);
  if (query.to !== undefined) params.set('to', query.to);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  const search = params.toString();
  return search ? `${HISTORY_URL}?${search}` : HISTORY_URL;
}

/** Stored scans change only by new ones arriving; a minute-old page is fresh enough. */
const HISTORY_STALE_MS = 60_000;

export const historyKeys = {
  all: [HISTORY_URL] as const,
  overview: () => [HISTORY_URL, 'overview'] as const,
  domainScans: (domainId: number) => [HISTORY_URL, 'domain', domainId] as const,
  scansAt: (domainId: number, to: string) => [HISTORY_URL, 'at', domainId, to] as const,
  days: (domainId: number, from: string) => [HISTORY_URL, 'days', domainId, from] as const,
};

/** Every active and restorable deleted domain, each with its newest page of scans (the cards of the page). */
export function historyQueryOptions() {
  return queryOptions({ queryKey: historyKeys.overview(), queryFn: ({ signal }) => api.get<DomainHistoryAnswer>(HISTORY_URL, { signal }), staleTime: HISTORY_STALE_MS });
}

export function useHistoryOverview({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...historyQueryOptions(), enabled });
}

/** One domain's scans, newest first, a page of 100 at a time; the next page is the one `before` the last one's cursor. */
export function domainScansQueryOptions(domainId: number) {
  return infiniteQueryOptions({
    queryKey: historyKeys.domainScans(domainId),
    queryFn: async ({ pageParam, signal }): Promise<DomainScanPage> =>
      toDomainPage(await api.get<DomainHistoryAnswer>(historyUrl({ domainId, before: pageParam, limit: HISTORY_DOMAIN_PAGE_DEFAULT }), { signal }), domainId),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: HISTORY_STALE_MS,
  });
}

/**
 * Refreshes a domain's list with its newest page only. react-query refetches every page an infinite
 * list holds, one after another: a list scrolled 60 pages deep would spend the history call's whole
 * rate limit (60 a minute at the gateway) on one return to the tab, and fail part-way. The list is
 * newest first and a completed scan never changes, so only the newest page can hold news; the older
 * pages are dropped and load again as the user scrolls down.
 */
export function refreshNewestScans(queryClient: QueryClient, domainId: number): Promise<void> {
  const queryKey = historyKeys.domainScans(domainId);
  queryClient.setQueryData<InfiniteData<DomainScanPage, string | null>>(queryKey, (data) =>
    data && data.pages.length > 1 ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
  );
  return queryClient.invalidateQueries({ queryKey, exact: true });
}

/** A domain's scans, refreshed on return to the tab (once stale) by their newest page only. */
export function useDomainScans(domainId: number) {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      focusManager.subscribe((focused) => {
        const list = queryClient.getQueryCache().find({ queryKey: historyKeys.domainScans(domainId), exact: true });
        if (focused && (list?.isStaleByTime(HISTORY_STALE_MS) ?? true)) void refreshNewestScans(queryClient, domainId);
      }),
    [queryClient, domainId],
  );
  return useInfiniteQuery({ ...domainScansQueryOptions(domainId), refetchOnWindowFocus: false });
}

/** GET /api/domains/{id}/history/days: the timeline's points, a year of UTC days (within HISTORY_DAYS_MAX). */
export function historyDaysQueryOptions(domainId: number, from: string) {
  const url = `/api/domains/${domainId}/history/days?from=${from}`;
  return queryOptions({ queryKey: historyKeys.days(domainId, from), queryFn: ({ signal }) => api.get<HistoryDaysAnswer>(url, { signal }), staleTime: HISTORY_STALE_MS });
}

export function useHistoryDays(domainId: number, now: number = Date.now()) {
  return useQuery(historyDaysQueryOptions(domainId, timelineFrom(now)));
}

/** The scans of a domain up to 10 minutes after `at`, newest first: the one nearest `at` and those before it. */
export const SCANS_AT_LIMIT = 50;

export function useScansAt(domainId: number | null, at: Date) {
  const to = new Date(at.getTime() + SCAN_MATCH_WINDOW_MS).toISOString();
  return useQuery({
    queryKey: historyKeys.scansAt(domainId ?? 0, to),
    queryFn: async ({ signal }) => toDomainPage(await api.get<DomainHistoryAnswer>(historyUrl({ domainId: domainId ?? 0, to, limit: SCANS_AT_LIMIT }), { signal }), domainId ?? 0),
    enabled: domainId !== null,
    staleTime: HISTORY_STALE_MS,
  });
}

/** GET /api/domain-checks/{scanId}: one scan of the user's with its checks; a scan never changes once done. */
export function scanDetailQueryOptions(scanId: string) {
  const url = `/api/domain-checks/${encodeURIComponent(scanId)}`;
  return queryOptions({ queryKey: [url], queryFn: () => api.get<ScanDetailAnswer>(url), staleTime: Infinity, retry: false });
}

export function useScanDetail(scanId: string | null) {
  return useQuery({ ...scanDetailQueryOptions(scanId ?? ''), enabled: scanId !== null });
}

/** GET /api/domains/{id}/last-scan: the summary kept for a domain, also once it is deleted. */
export function useLastScan(domainId: number | null) {
  const url = `/api/domains/${domainId ?? 0}/last-scan`;
  return useQuery({ queryKey: [url], queryFn: () => api.get<LastScanAnswer>(url), enabled: domainId !== null, retry: false });
}
