/**
 * Build-time rendering of the pages visitors arrive on (scripts/prerender-plugin.ts): the same route
 * table and providers as the browser (main.tsx), rendered to HTML once per build. The gateway serves
 * that HTML at these exact paths, so a phone paints the page before any JavaScript has run; the
 * browser then hydrates it. Only screens that render the same for every visitor belong here: what
 * differs per visitor (session, currency, stored choices) is read after hydration.
 */
import { StrictMode, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { preloadRoutes } from './app/lazy-route';
import { AppRoutes, routes } from './app/router';
import { paths } from './config/paths';
import { createQueryClient } from './lib/query-client';

export const PRERENDERED_PATHS = [paths.landing, paths.login] as const;

export interface PrerenderedPage {
  /** The markup of `#root`. */
  html: string;
  /** The page's `<title>` text, for the document head. */
  title: string | null;
}

// React 19 writes a route's <title> where it is rendered; the browser hoists it into <head> itself.
const TITLE = /<title>([^<]*)<\/title>/;

export async function prerender(path: string): Promise<PrerenderedPage> {
  const queryClient = createQueryClient();
  // Its modules first: renderToString draws a suspended screen as its fallback, not the screen.
  await preloadRoutes(routes, path);
  const markup = renderToString(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <StaticRouter location={path}>
          <Suspense fallback={null}>
            <AppRoutes />
          </Suspense>
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
  );
  const title = TITLE.exec(markup);
  return { html: title ? markup.replace(TITLE, '') : markup, title: title ? title[1]! : null };
}
