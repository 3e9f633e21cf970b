import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type HydrationOptions, type Root } from 'react-dom/client';
import { createBrowserRouter, RouterProvider, type DataRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { createRoutes } from './router';

/** Resolves once the router has loaded the first route's lazy module: until then it renders nothing. */
function routerReady(router: DataRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Renders the app into `root`, or hydrates it when `root` holds a page rendered at build time
 * (src/prerender.tsx). Resolves with React's root once React has taken the element over.
 */
export async function startApp(root: HTMLElement, options: Pick<HydrationOptions, 'onRecoverableError'> = {}): Promise<Root> {
  const queryClient = createQueryClient();
  const router = createBrowserRouter(createRoutes(queryClient));
  const app = (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  );
  // As transitions, the first render and hydration yield to the browser every few milliseconds instead
  // of holding the main thread for the whole page (the landing page took one ~700 ms task on a phone).
  if (root.hasChildNodes()) {
    // The markup is that of the route's module: hydrating before it is loaded would not match.
    await routerReady(router);
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
