import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COUNTDOWN_REFRESH_MS, CountdownChip } from './countdown-chip';

describe('CountdownChip', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('counts down once a minute and ends on "Scan due now"', () => {
    render(<CountdownChip nextScanAt="2026-01-01T11:02:00Z" />);
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('1h 2m until next scan');
    act(() => vi.advanceTimersByTime(COUNTDOWN_REFRESH_MS));
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('1h 1m until next scan');
    act(() => vi.advanceTimersByTime(2 * COUNTDOWN_REFRESH_MS));
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('59m until next scan');
    act(() => vi.advanceTimersByTime(59 * COUNTDOWN_REFRESH_MS));
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('Scan due now');
  });

  it('does not change between refreshes', () => {
    render(<CountdownChip nextScanAt="2026-01-03T12:00:00Z" />);
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('2d 2h until next scan');
    act(() => vi.advanceTimersByTime(COUNTDOWN_REFRESH_MS - 1));
    expect(screen.getByTestId('countdown-chip')).toHaveTextContent('2d 2h until next scan');
  });
});
