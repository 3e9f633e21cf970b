import type { DeletedDomain } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deletedOnText, RecentlyDeletedPanel } from './recently-deleted-panel';

const now = Date.parse('2026-03-31T12:00:00Z');
const DAY = 86_400_000;
const deletion = (id: number, name: string, daysAgo: number): DeletedDomain => {
  const deletedAt = new Date(now - daysAgo * DAY).toISOString();
  return { id, name, status: 'healthy', scanCount: id, lastScan: null, deletedAt, restorableUntil: new Date(now + 60 * DAY).toISOString() };
};

function renderPanel(deleted: DeletedDomain[]) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <RecentlyDeletedPanel deleted={deleted} now={now} />
    </QueryClientProvider>,
  );
}

describe('RecentlyDeletedPanel', () => {
  it('lists deletions of the last 30 days with days left = deletion + 30 days - today', () => {
    renderPanel([deletion(1, 'fresh.example', 0), deletion(2, 'older.example', 10.5), deletion(3, 'edge.example', 29.9), deletion(4, 'gone.example', 45)]);
    const rows = screen.getAllByTestId('deleted-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByTestId('days-left')).toHaveTextContent('30 days left');
    expect(within(rows[1]!).getByTestId('days-left')).toHaveTextContent('20 days left');
    expect(within(rows[2]!).getByTestId('days-left')).toHaveTextContent('1 days left');
    expect(screen.getByTestId('deleted-count')).toHaveTextContent('3');
    expect(screen.queryByText('gone.example')).toBeNull();
    expect(within(rows[1]!).getByText(/2 scans/)).toBeInTheDocument();
    expect(within(rows[0]!).getAllByText('to restore')).toHaveLength(1);
    expect(within(rows[0]!).getByRole('button', { name: 'Re-add fresh.example' })).toBeInTheDocument();
  });

  it('formats the deletion date as MMM d', () => {
    expect(deletedOnText('2026-03-05T12:00:00Z')).toBe('Deleted Mar 5');
  });

  it('says so when nothing was deleted in the last 30 days', () => {
    renderPanel([deletion(4, 'gone.example', 45)]);
    expect(screen.getByText('No domains deleted in the last 30 days')).toBeInTheDocument();
    expect(screen.getByTestId('deleted-count')).toHaveTextContent('0');
  });
});
