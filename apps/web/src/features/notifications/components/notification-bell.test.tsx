import type { User } from '@sendwell/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NotificationBell } from './notification-bell';

// Free plan: no reports or alerts are fetched, so only the promo counts.
const freeUser = { id: 1, planType: 'free' } as User;

function renderBell() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <NotificationBell user={freeUser} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('NotificationBell', () => {
  it('is named by its visible badge, so the count is read out with it', () => {
    renderBell();
    const bell = screen.getByRole('button', { name: 'Notifications, 1 unread' });
    expect(bell).toContainElement(screen.getByTestId('bell-badge'));
    expect(screen.getByTestId('bell-badge')).toHaveTextContent(/^1$/);
  });

  it('drops the promo and the count once the promo is dismissed', async () => {
    const user = userEvent.setup();
    renderBell();
    await user.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toHaveTextContent('Unlock Premium Features');
    await user.click(await screen.findByRole('button', { name: 'Dismiss promotion' }));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('bell-badge')).toBeNull();
  });
});
