import type { HistoryScan } from '@sendwell/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { groupScansBySecond } from '../lib/history';
import { ScanList, type ScanListPaging } from './scan-list';

vi.mock('@/lib/auth/auth-provider', () => ({ useUser: () => ({ planType: 'standard', dateFormat: 'MMM dd, yyyy', timezone: 'UTC' }) }));

/** The rows the stand-in virtualizer draws: jsdom lays nothing out, so the test says which rows are "in view". */
const view = vi.hoisted(() => ({ first: 0, last: 9 }));
vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count }: { count: number }) => {
    const items: Array<{ index: number; start: number; key: number }> = [];
    for (let index = view.first; index <= Math.min(view.last, count - 1); index++) items.push({ index, start: index * 76, key: index });
    return { getVirtualItems: () => items, getTotalSize: () => count * 76, measureElement: () => undefined };
  },
}));

const scans = (n: number): HistoryScan[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    status: 'completed',
    createdAt: new Date(Date.parse('2026-11-25T10:00:00Z') - i * 15 * 60_000).toISOString(),
    checkCount: 6,
    passedCount: 6,
    health: 'healthy',
    overallStatus: 'healthy',
    checks: { spf: 'valid' },
    score: 70,
    dnsChanges: [],
  }));

function renderList(n: number, paging: Partial<ScanListPaging>) {
  const loadMore = vi.fn();
  const full: ScanListPaging = { loadedScans: n, totalScans: 1000, hasNextPage: true, isFetching: false, isFetchingNextPage: false, failed: false, loadMore, ...paging };
  render(
    <MemoryRouter>
      <ScanList groups={groupScansBySecond(scans(n))} domainName="a.test" paging={full} />
    </MemoryRouter>,
  );
  return loadMore;
}

describe('ScanList paging', () => {
  beforeEach(() => {
    view.first = 0;
    view.last = 9;
  });

  it('draws the loaded rows, says loaded against total, and does not ask for more at the top', () => {
    const loadMore = renderList(100, {});
    expect(screen.getByRole('list', { name: '100 of 1000 scans loaded' })).toBeInTheDocument();
    expect(screen.getAllByTestId('scan-row')).toHaveLength(10);
    expect(screen.getByTestId('scan-list-more')).toHaveTextContent('Older scans load as you scroll');
    expect(loadMore).not.toHaveBeenCalled();
  });

  it('asks for the next page once the rows drawn reach the end of what is loaded', () => {
    view.first = 90;
    view.last = 99;
    const loadMore = renderList(100, {});
    expect(loadMore).toHaveBeenCalledTimes(1);
    // The last loaded row does not claim to be the first scan while older pages remain.
    expect(screen.queryByText('First scan kept')).toBeNull();
  });

  it('waits while a page is in flight, and says so', () => {
    view.first = 90;
    view.last = 99;
    const loadMore = renderList(100, { isFetching: true, isFetchingNextPage: true });
    expect(loadMore).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('Loading more scans…');
  });

  it('stops after a failed page and offers to retry', async () => {
    view.first = 90;
    view.last = 99;
    const loadMore = renderList(100, { failed: true });
    expect(loadMore).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(loadMore).toHaveBeenCalledTimes(1);
  });

  it('marks the very last row "First scan kept" when no page remains', () => {
    view.first = 20;
    view.last = 29;
    const loadMore = renderList(30, { hasNextPage: false, totalScans: 30 });
    expect(loadMore).not.toHaveBeenCalled();
    expect(screen.getByRole('list', { name: '30 scans' })).toBeInTheDocument();
    expect(screen.getAllByText('First scan kept')).toHaveLength(1);
    expect(screen.queryByTestId('scan-list-more')).toBeNull();
  });

  it('links every row to its scan at its time and to the scan itself by id', () => {
    renderList(100, {});
    const rows = screen.getAllByTestId('scan-row');
    rows.forEach((row, i) => {
      const id = scans(100)[i]!.id;
      const [atTime, detail] = within(row).getAllByRole('link');
      expect(atTime).toHaveAttribute('href', expect.stringMatching(/^\/domain\/a\.test\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/));
      expect(detail).toHaveAttribute('href', `/domain-history/a.test/scan/${id}`);
      expect(detail).toHaveAccessibleName(/^Details of the scan of /);
    });
  });
});
