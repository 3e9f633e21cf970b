import type { SampleDomainAnswer } from '@sendwell/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SampleDomainCard } from './sample-domain-card';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function answer(checks: SampleDomainAnswer['checks'], lastScan: string | null = minutesAgo(5)): SampleDomainAnswer {
  return { domain: { name: 'example.com', status: 'warning', lastScan }, checks };
}

const row = (type: string) => within(screen.getByTestId(`row-${type}`));

describe('SampleDomainCard', () => {
  it("reads 'Scanning...' on every row while the checks are absent", () => {
    render(<SampleDomainCard answer={answer(null, null)} onOpen={vi.fn()} />);
    expect(screen.getAllByText('Scanning...')).toHaveLength(6);
    expect(screen.getByTestId('last-checked')).toHaveTextContent('Never scanned');
    expect(screen.getByTestId('domain-status')).toHaveTextContent('pending');
  });

  it('shows each row through the display mappings, with the badge styles', () => {
    const c = (type: string, status: string) => ({ type, status, value: null, message: null }) as NonNullable<SampleDomainAnswer['checks']>[number];
    render(
      <SampleDomainCard
        answer={answer([c('spf', 'valid'), c('dkim', 'missing'), c('dmarc', 'warning'), c('blacklist', 'error'), c('ssl_certificate', 'valid'), c('dns_performance', 'success')])}
        onOpen={vi.fn()}
      />,
    );
    expect(row('spf').getByText('Valid')).toHaveAttribute('data-variant', 'secondary');
    expect(row('dkim').getByText('Error')).toHaveAttribute('data-variant', 'destructive');
    expect(row('dmarc').getByText('Warning')).toHaveAttribute('data-variant', 'outline');
    expect(row('blacklist').getByText('Listed')).toBeTruthy();
    expect(row('ssl_certificate').getByText('Valid')).toBeTruthy();
    expect(row('dns_performance').getByText('Excellent')).toBeTruthy();
    expect(screen.getByTestId('domain-status')).toHaveAttribute('data-variant', 'outline');
    expect(screen.getByTestId('last-checked')).toHaveTextContent('Last checked: 5m ago');
  });

  it('reads a clean blacklist, an unknown SSL state and poor DNS', () => {
    const c = (type: string, status: string) => ({ type, status, value: null, message: null }) as NonNullable<SampleDomainAnswer['checks']>[number];
    render(<SampleDomainCard answer={answer([c('blacklist', 'warning'), c('ssl_certificate', 'unknown'), c('dns_performance', 'error')], minutesAgo(60 * 26))} onOpen={vi.fn()} />);
    expect(row('blacklist').getByText('Clean')).toBeTruthy();
    expect(row('ssl_certificate').getByText('Unknown')).toBeTruthy();
    expect(row('dns_performance').getByText('Poor')).toBeTruthy();
    expect(screen.getByTestId('last-checked')).toHaveTextContent('Last checked: 1d ago');
  });
});
