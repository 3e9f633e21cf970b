import { StrictMode, Suspense, startTransition } from 'react';
import { createRoot, hydrateRoot, type HydrationOptions, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { preloadRoutes } from './lazy-route';
import { AppProvider } from './provider';
import { AppRoutes, routes } from './router';

/**
 * Renders the app into `root`, or hydrates it when `root` holds a page rendered at build time
 * (src/prerender.tsx). Resolves with React's root once React has taken the element over.
 */
export async function startApp(root: HTMLElement, options: Pick<HydrationOptions, 'onRecoverableError'> = {}): Promise<Root> {
  const queryClient = createQueryClient();
  // The first screen's modules, loaded before the first render: a prerendered page's markup is that
  // of its route's module, and hydrating before the module is there would not match.
  await preloadRoutes(routes, window.location.pathname);
  const app = (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <BrowserRouter>
          <Suspense fallback={null}>
            <AppRoutes />
          </Suspense>
        </BrowserRouter>
      </AppProvider>
    </StrictMode>
  );
  // As transitions, the first render and hydration yield to the browser every few milliseconds instead
  // of holding the main thread for the whole page (the landing page took one ~700 ms task on a phone).
  if (root.hasChildNodes()) {
    let hydrated!: Root;
    startTransition(() => {
      hydrated = hydrateRoot(root, app, options);
    });
    return hydrated;
  }
  const rendered = createRoot(root);
  startTransition(() => rendered.render(app));
  return rendered;
}
