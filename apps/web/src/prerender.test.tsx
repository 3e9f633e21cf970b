import { screen, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp } from './app/start';
import { PRERENDERED_PATHS, prerender, SIGNED_IN_SHELL_PAGES } from './prerender';

/** Hydration runs in tasks of its own after the route module loads: well past waitFor's default 1 s on a loaded machine. */
const HYDRATION = { timeout: 15_000 };
/** Rendering, importing the app and hydrating, each slower in jsdom under load than the default 5 s test timeout allows. */
const HYDRATION_TEST_MS = 30_000;

/** What the browser does with a prerendered page: its markup in #root, then the app started on it. */
async function hydrateAt(path: string, html: string) {
  window.history.replaceState(null, '', path);
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = html;
  document.body.append(root);
  const heading = root.querySelector('h1');
  const recoverableErrors: unknown[] = [];
  roots.push(await startApp(root, { onRecoverableError: (error) => recoverableErrors.push(error) }));
  return { root, heading, recoverableErrors };
}

const roots: Root[] = [];

beforeEach(() => {
  // The theme provider follows the system theme; jsdom has no media queries.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
});

afterEach(() => {
  roots.splice(0).forEach((root) => root.unmount());
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('pages rendered at build time', () => {
  it('are the landing page and the login page', () => {
    expect(PRERENDERED_PATHS).toEqual(['/', '/login']);
  });

  it.each([
    ['/', 'Make sure your email lands in the inbox', 'Sendwell · Email deliverability monitoring', 'Create Free Account'],
    ['/login', 'Welcome back', 'Log in · Sendwell', 'Sign in'],
  ])('%s: rendered with its title and its form disabled, then hydrated in place without a mismatch', async (path, heading, title, submit) => {
    const page = await prerender(path);
    expect(page.title).toBe(title);
    expect(page.html).toContain(heading);
    expect(page.html).not.toContain('<title>');
    expect(page.html).toMatch(/<fieldset disabled="" data-awaiting-app=""/);

    const hydrated = await hydrateAt(path, page.html);
    // Enabled once React owns the page, on the very elements the HTML drew (not a fresh render).
    await waitFor(() => expect(screen.getByRole('button', { name: submit })).toBeEnabled(), HYDRATION);
    expect(hydrated.root.querySelector('[data-awaiting-app]')).toBeNull();
    expect(hydrated.root.querySelector('h1')).toBe(hydrated.heading);
    expect(hydrated.recoverableErrors).toEqual([]);
  }, HYDRATION_TEST_MS);

  it('/: hydrates with the prerendered currency, then shows the visitor’s own', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA']);
    const page = await prerender('/');
    expect(page.html).toMatch(/<option value="AUD" selected="">AUD<\/option>/);

    const hydrated = await hydrateAt('/', page.html);
    await waitFor(() => expect(screen.getByLabelText('Currency')).toHaveValue('CAD'), HYDRATION);
    expect(hydrated.recoverableErrors).toEqual([]);
  }, HYDRATION_TEST_MS);

  it('the signed-in screens: the shell’s frame with their title, each a route of the table', async () => {
    for (const path of Object.keys(SIGNED_IN_SHELL_PAGES)) {
      const page = await prerender(path);
      const title = page.title?.replace(' · Sendwell', '');
      expect(title, path).not.toBe('Sendwell');
      expect(page.html, path).toContain(`<h1 class="min-w-0 flex-1 truncate text-lg font-semibold">${title}</h1>`);
      expect(page.html, path).toContain('aria-label="Sidebar"');
      expect(page.html, path).toContain('Restoring your session');
    }
  });

  it('/dashboard: the frame is hydrated without a mismatch, then a visitor without a session goes to /login', async () => {
    const page = await prerender('/dashboard');
    expect(page.title).toBe('Dashboard · Sendwell');
    const hydrated = await hydrateAt('/dashboard', page.html);
    await waitFor(() => expect(window.location.pathname).toBe('/login'), HYDRATION);
    expect(hydrated.recoverableErrors).toEqual([]);
  }, HYDRATION_TEST_MS);
});
