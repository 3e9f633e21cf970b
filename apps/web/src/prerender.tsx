/**
 * Build-time rendering of the pages visitors arrive on (scripts/prerender-plugin.ts): the same route
 * table and providers as the browser (main.tsx), rendered to HTML once per build. The gateway serves
 * that HTML at these exact paths, so a phone paints the page before any JavaScript has run; the
 * browser then hydrates it. Only screens that render the same for every visitor belong here: what
 * differs per visitor (session, currency, stored choices) is read after hydration.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createRoutes } from './app/router';
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
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`prerender ${path}: the route answered a redirect (${context.status})`);
  if (context.statusCode !== 200) throw new Error(`prerender ${path}: status ${context.statusCode}`);

  const markup = renderToString(
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        {/* No inline hydration data: the CSP allows no inline script, and these routes load none. */}
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>,
  );
  const title = TITLE.exec(markup);
  return { html: title ? markup.replace(TITLE, '') : markup, title: title ? title[1]! : null };
}
