import type { DomainHistoryAnswer } from '@sendwell/contracts';
import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyKeys, refreshNewestScans, useDomainScans } from './history';

/** The history call as the server pages it: three pages of two scans, each naming the next by cursor. */
const asked = vi.hoisted(() => [] as string[]);
vi.mock('@/lib/api-client', () => ({
  api: {
    get: (url: string): Promise<DomainHistoryAnswer> => {
      asked.push(url);
      const before = new URL(url, 'https://app.test').searchParams.get('before');
      const page = before === null ? 0 : Number(before);
      const scans = [0, 1].map((i) => ({
        id: `00000000-0000-4000-8000-${String(page * 2 + i).padStart(12, '0')}`,
        status: 'completed' as const,
        createdAt: new Date(Date.parse('2026-11-25T10:00:00Z') - (page * 2 + i) * 900_000).toISOString(),
        checkCount: 6,
        passedCount: 6,
        health: 'healthy' as const,
        overallStatus: 'healthy',
        checks: {},
      }));
      return Promise.resolve([
        { id: 7, name: 'a.test', status: 'healthy', scanCount: 6, lastScan: scans[0]!.createdAt, isDeleted: false, deletedAt: null, scans, nextCursor: page < 2 ? String(page + 1) : null },
      ] as unknown as DomainHistoryAnswer);
    },
  },
}));

let client: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

beforeEach(() => {
  asked.length = 0;
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});

afterEach(() => {
  vi.useRealTimers();
  focusManager.setFocused(undefined);
  client.clear();
});

async function scrolledThreePages() {
  const hook = renderHook(() => useDomainScans(7), { wrapper });
  await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(1));
  // The observer tells React on a later tick than the fetch's promise: wait for what it shows.
  await act(() => hook.result.current.fetchNextPage());
  await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(2));
  await act(() => hook.result.current.fetchNextPage());
  await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(3));
  expect(asked).toHaveLength(3);
  asked.length = 0;
  return hook;
}

describe("a domain's scan list, refreshed", () => {
  it('asks for the newest page only, however deep the list was scrolled, and loads the older ones again on scroll', async () => {
    const hook = await scrolledThreePages();
    await act(() => refreshNewestScans(client, 7));
    expect(asked).toEqual(['/api/domain-checks/history?domainId=7&limit=100']);
    await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(1));
    expect(hook.result.current.hasNextPage).toBe(true);
    await act(() => hook.result.current.fetchNextPage());
    await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(2));
    expect(asked[1]).toBe('/api/domain-checks/history?domainId=7&before=1&limit=100');
  });

  it('on return to the tab, once stale: the newest page only; while fresh: nothing', async () => {
    const hook = await scrolledThreePages();
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    // Fresh (under a minute old): no call at all.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual([]);

    // A minute and more later, the same return asks once, for the newest page.
    const updatedAt = client.getQueryState(historyKeys.domainScans(7))?.dataUpdatedAt ?? 0;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(updatedAt + 61_000);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(asked).toEqual(['/api/domain-checks/history?domainId=7&limit=100']));
    await waitFor(() => expect(hook.result.current.data?.pages).toHaveLength(1));
    expect(hook.result.current.isFetching).toBe(false);
  });
});
