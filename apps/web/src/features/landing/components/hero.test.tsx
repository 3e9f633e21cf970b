import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Hero } from './hero';

function renderHero() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Hero /> },
      { path: '/register', element: <p>register page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const input = () => screen.getByLabelText('Your domain');

describe('landing domain input', () => {
  it.each([
    ['   ', 'Please enter a domain name'],
    ['me@example.com', 'Please enter a domain name, not an email address'],
    ['192.168.0.1', 'Please enter a domain name, not an IP address'],
    ['2001:db8::1', 'Please enter a domain name, not an IP address'],
    ['-bad-.com', 'Please enter a valid domain name (e.g., example.com)'],
    ['localhost', 'Please enter a valid domain name (e.g., example.com)'],
  ])('rejects %j with the rule in order', async (value, message) => {
    const user = userEvent.setup();
    renderHero();
    if (value.trim()) await user.type(input(), value);
    await user.click(screen.getByRole('button', { name: 'Create Free Account' }));
    // The rules arrive with the contracts' lazily loaded chunk; the first import can take a moment.
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(message);
  });

  it('clears the error when the visitor types', async () => {
    const user = userEvent.setup();
    renderHero();
    await user.click(screen.getByRole('button', { name: 'Create Free Account' }));
    await screen.findByRole('alert', {}, { timeout: 5000 });
    await user.type(input(), 'e');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('submits on Enter: removes the currency override and goes to registration', async () => {
    const user = userEvent.setup();
    localStorage.setItem('currencyOverride', 'CAD');
    const router = renderHero();
    await user.type(input(), 'My-Shop.com.au{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(router.state.location.search).toBe('?domain=my-shop.com.au&source=landing_page');
    expect(localStorage.getItem('currencyOverride')).toBeNull();
  });
});
