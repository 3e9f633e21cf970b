import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CheckRows } from './check-rows';

const row = (type: string) => screen.getByTestId(`row-${type}`);
const badge = (type: string) => within(row(type)).getByText(/.+/, { selector: '[data-variant]' });

describe('CheckRows', () => {
  it('shows the six rows in card order with their titles', () => {
    render(<CheckRows checks={[]} scanned={false} />);
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['SPF Record', 'DKIM', 'DMARC', 'Blacklists', 'SSL Certificate', 'DNS Performance']);
  });

  it('maps statuses to the labels and badge styles of the display rules', () => {
    render(
      <CheckRows
        scanned
        checks={[
          { type: 'spf', status: 'valid' },
          { type: 'dkim', status: 'warning' },
          { type: 'dmarc', status: 'missing' },
          { type: 'blacklist', status: 'unknown' },
          { type: 'ssl_certificate', status: 'error' },
          { type: 'dns_performance', status: 'success' },
        ]}
      />,
    );
    expect(badge('spf')).toHaveTextContent('Valid');
    expect(badge('spf')).toHaveAttribute('data-variant', 'secondary');
    expect(badge('dkim')).toHaveTextContent('Warning');
    expect(badge('dkim')).toHaveAttribute('data-variant', 'outline');
    expect(badge('dmarc')).toHaveTextContent('Error');
    expect(badge('dmarc')).toHaveAttribute('data-variant', 'destructive');
    expect(badge('blacklist')).toHaveTextContent('Clean');
    expect(badge('ssl_certificate')).toHaveTextContent('Invalid');
    expect(badge('dns_performance')).toHaveTextContent('Excellent');
  });

  it('reads Listed, Unknown SSL and Fair / Poor DNS', () => {
    render(
      <CheckRows
        scanned
        checks={[
          { type: 'blacklist', status: 'error' },
          { type: 'ssl_certificate', status: 'unknown' },
          { type: 'dns_performance', status: 'warning' },
        ]}
      />,
    );
    expect(badge('blacklist')).toHaveTextContent('Listed');
    expect(badge('ssl_certificate')).toHaveTextContent('Unknown');
    expect(badge('dns_performance')).toHaveTextContent('Fair');
  });

  it('says "Not scanned" before the first scan', () => {
    render(<CheckRows checks={[]} scanned={false} />);
    expect(within(row('spf')).getByText('Not scanned')).toBeInTheDocument();
  });
});
