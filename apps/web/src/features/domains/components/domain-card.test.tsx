import type { Domain } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DomainCard } from './domain-card';

const domain = (scanPaused: boolean): Domain => ({
  id: 7,
  userId: 1,
  name: 'paused.example',
  status: 'healthy',
  lastScan: null,
  scanCount: 0,
  hasDetailedReport: false,
  metadata: {},
  isDeleted: false,
  deletedAt: null,
  nextScanAt: null,
  scanPaused,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

function renderCard(d: Domain) {
  // Queries stay pending (nothing answers): the card's own parts are what is under test.
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DomainCard domain={d} plan="basic" now={Date.now()} onRemove={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DomainCard', () => {
  it('says a domain above the plan’s limit is not scanned, with the way to upgrade', () => {
    renderCard(domain(true));
    expect(screen.getByTestId('scan-paused')).toHaveTextContent('Scans paused: this domain is above your plan\'s limit. Upgrade your plan or remove a domain to scan it again.');
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/subscription');
  });

  it('shows no such note for a domain within the limit', () => {
    renderCard(domain(false));
    expect(screen.queryByTestId('scan-paused')).toBeNull();
  });
});
