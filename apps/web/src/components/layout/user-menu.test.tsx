import type { User } from '@sendwell/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { UserMenu } from './user-menu';

const base = { id: 1, email: 'ada@example.com', username: 'adalovelace', firstName: null, lastName: null } as User;

function renderMenu(user: Partial<User>) {
  render(
    <MemoryRouter>
      <UserMenu user={{ ...base, ...user }} onLogout={vi.fn()} />
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: /Account menu$/ });
}

describe('avatar initials', () => {
  it('uses the first letters of first and last name', () => {
    expect(renderMenu({ firstName: 'ada', lastName: 'Lovelace' })).toHaveTextContent('AL');
  });
  it('falls back to the first two letters of the username', () => {
    expect(renderMenu({ firstName: 'Ada' })).toHaveTextContent('AD');
  });
  it("falls back to 'U'", () => {
    expect(renderMenu({ username: '' })).toHaveTextContent('U');
  });
});

describe('avatar menu', () => {
  it('shows the full name only when both parts exist, the email and the three items', async () => {
    const user = userEvent.setup();
    await user.click(renderMenu({ firstName: 'Ada', lastName: 'Lovelace' }));
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent?.trim())).toEqual(['Settings', 'Subscription', 'Log out']);
  });

  it('omits the name when a part is missing', async () => {
    const user = userEvent.setup();
    await user.click(renderMenu({ firstName: 'Ada' }));
    await screen.findByText('ada@example.com');
    expect(screen.queryByText(/^Ada$/)).toBeNull();
  });
});
