import type { Domain } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('DomainCard reads', () => {
  /** What the stand-in server answers, by URL; changed between a failure and the retry. */
  let answers: Record<string, { status: number; body: unknown }> = {};

  function renderLive(plan: string) {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const answer = answers[url] ?? { status: 404, body: { code: 'NOT_FOUND', message: 'Not found' } };
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }));
    // No retries: the first failure is the final one, as after the app's own three.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <DomainCard domain={{ ...domain(false), lastScan: '2026-11-20T00:00:00.000Z' }} plan={plan} now={Date.now()} onRemove={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
  }
  const failed = { status: 500, body: { code: 'INTERNAL', message: 'boom' } };

  afterEach(() => vi.unstubAllGlobals());

  it('says the checks read failed instead of loading for ever, and reads again on Try again', async () => {
    answers = { '/api/domains/7/checks': failed };
    renderLive('basic');
    const error = await screen.findByTestId('checks-read-error');
    expect(error).toHaveTextContent("Couldn't load this domain's checks.");
    expect(screen.queryByTestId('row-spf')).toBeNull();

    answers = { '/api/domains/7/checks': { status: 200, body: [{ type: 'spf', status: 'valid' }] } };
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('row-spf')).toHaveTextContent('Valid');
    expect(screen.queryByTestId('checks-read-error')).toBeNull();
  });

  it('says the reputation read failed, never that the score comes after the first daily calculation', async () => {
    answers = { '/api/domains/7/checks': { status: 200, body: [] }, '/api/domains/7/reputation': failed };
    renderLive('standard');
    expect(await screen.findByTestId('reputation-read-error')).toHaveTextContent("Couldn't load the reputation score.");
    expect(screen.queryByText(/first daily calculation/)).toBeNull();

    // A successful answer of null is the true empty state.
    answers['/api/domains/7/reputation'] = { status: 200, body: null };
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('reputation-block')).toHaveTextContent('Reputation score: available after the first daily calculation.');
    expect(screen.queryByTestId('reputation-read-error')).toBeNull();
  });
});
