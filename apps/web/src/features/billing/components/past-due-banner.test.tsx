import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PastDueBanner } from './past-due-banner';

const renderBanner = (status: string | null) =>
  render(
    <MemoryRouter>
      <PastDueBanner status={status} plan="standard" />
    </MemoryRouter>,
  );

describe('PastDueBanner', () => {
  it('says a renewal failed, what happens next, and links to the card update', () => {
    renderBanner('past_due');
    expect(screen.getByRole('alert')).toHaveTextContent('Your last payment failed');
    expect(screen.getByRole('alert')).toHaveTextContent('We could not charge your card for Standard Monitoring.');
    expect(screen.getByRole('link', { name: 'Update your card' })).toHaveAttribute('href', '/update-payment');
  });

  it.each([['active'], ['canceled'], [null]])('shows nothing for a subscription that is %s', (status) => {
    renderBanner(status);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
