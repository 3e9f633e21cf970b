import type { User } from '@sendwell/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { AuthProvider, useAuth } from './auth-provider';

const userOn = (planType: string) => ({ id: 1, username: 'ada', email: 'ada@mail.test', planType }) as User;

let serverPlan = 'free';
const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(userOn(serverPlan)), { status: 200 }));
const userReads = () => fetchMock.mock.calls.filter(([url]) => url === '/api/user').length;

let go: (to: string) => void = () => undefined;
function Probe() {
  const { user } = useAuth();
  const navigate = useNavigate();
  go = (to) => void navigate(to);
  return <p data-testid="plan">{user?.planType ?? 'none'}</p>;
}

describe('AuthProvider re-reads the user on route change', () => {
  beforeEach(async () => {
    vi.stubGlobal('fetch', fetchMock);
    serverPlan = 'free';
    localStorage.setItem('auth_token', 'token');
    localStorage.setItem('auth_user', JSON.stringify(userOn('free')));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <AuthProvider>
            <Probe />
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    // The restore reads once; the first path does not read again.
    await waitFor(() => expect(userReads()).toBe(1));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it('applies a plan changed elsewhere on the next screen', async () => {
    serverPlan = 'basic';
    act(() => go('/reports'));
    await waitFor(() => expect(screen.getByTestId('plan')).toHaveTextContent('basic'));
    expect(userReads()).toBe(2);
    expect((JSON.parse(localStorage.getItem('auth_user')!) as User).planType).toBe('basic');
  });

  it('reads once for a burst of route changes (a redirect chain), and not for a search change', async () => {
    act(() => {
      go('/settings');
      go('/domains');
    });
    act(() => go('/billing'));
    await waitFor(() => expect(userReads()).toBe(2));
    // The answer is unchanged: the same user, no second apply.
    act(() => go('/billing?page=2'));
    await new Promise((r) => setTimeout(r, 50));
    expect(userReads()).toBe(2);
    expect(screen.getByTestId('plan')).toHaveTextContent('free');
  });
});
