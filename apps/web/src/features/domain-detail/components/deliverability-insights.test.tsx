import type { DomainCheck } from '@sendwell/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeliverabilityInsights } from './deliverability-insights';

let id = 0;
const check = (type: DomainCheck['type'], status: DomainCheck['status']): DomainCheck =>
  ({ id: ++id, domainId: 1, scanId: '00000000-0000-4000-8000-000000000000', type, status, value: null, message: null, recommendation: `Fix ${type}`, createdAt: '2026-01-01T00:00:00Z', details: {} }) as DomainCheck;

describe('DeliverabilityInsights', () => {
  it('applies the part 2 §9 formula: warning 10, error 20, missing 15; projected +18; 18% for several issues', () => {
    render(<DeliverabilityInsights checks={[check('spf', 'warning'), check('dkim', 'error'), check('dmarc', 'valid'), check('blacklist', 'valid')]} />);
    // 100 - (10 + 20) = 70 → Needs Attention (above 60); projected min(99, 70 + 18) = 88.
    expect(screen.getByTestId('insight-score')).toHaveTextContent('70/100');
    expect(screen.getByTestId('insight-label')).toHaveTextContent('Needs Attention');
    expect(screen.getByTestId('insight-projection')).toHaveTextContent('the 2 issues below could improve deliverability by an estimated 18%, raising your score to 88');
    expect(screen.getByText('Fix spf')).toBeInTheDocument();
  });

  it('uses 10% for one issue and labels above 80 Good', () => {
    render(<DeliverabilityInsights checks={[check('dmarc', 'missing'), check('spf', 'valid')]} />);
    expect(screen.getByTestId('insight-score')).toHaveTextContent('85/100');
    expect(screen.getByTestId('insight-label')).toHaveTextContent('Good');
    expect(screen.getByTestId('insight-projection')).toHaveTextContent('by an estimated 10%, raising your score to 99');
  });

  it('floors the score at 30 and calls it Critical', () => {
    const many = (['spf', 'dkim', 'dmarc', 'blacklist', 'ssl_certificate'] as const).map((t) => check(t, 'error'));
    render(<DeliverabilityInsights checks={many} />);
    expect(screen.getByTestId('insight-score')).toHaveTextContent('30/100');
    expect(screen.getByTestId('insight-label')).toHaveTextContent('Critical');
  });

  it('shows the empty state without checks', () => {
    render(<DeliverabilityInsights checks={[]} />);
    expect(screen.getByText('No deliverability data available for this domain yet.')).toBeInTheDocument();
  });
});
