/**
 * Build-time rendering of the pages visitors arrive on (scripts/prerender-plugin.ts): the same route
 * table and providers as the browser (main.tsx), rendered to HTML once per build. The gateway serves
 * that HTML at these exact paths, so a phone paints the page before any JavaScript has run; the
 * browser then hydrates it. Only screens that render the same for every visitor belong here: what
 * differs per visitor (session, currency, stored choices) is read after hydration.
 *
 * The signed-in screens at one-segment paths are rendered too, as what the app first draws there
 * while it restores the session: the shell's frame with the page title (RequireAuthRoute). The app's
 * code and the screen's own chunks are preloaded from that page, so the screen follows the frame.
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

/**
 * Signed-in screens whose HTML holds the shell's frame, each with its route's module (relative to
 * apps/web, as in the build manifest) whose chunks the page preloads. One-segment paths only: the
 * gateway serves `prerendered/<name>.html` at `/<name>`.
 */
export const SIGNED_IN_SHELL_PAGES: Readonly<Record<string, string>> = {
  [paths.dashboard]: 'src/app/routes/app/dashboard.tsx',
  [paths.domains]: 'src/app/routes/app/domains.tsx',
  [paths.domainHistory]: 'src/app/routes/app/domain-history.tsx',
  [paths.reports]: 'src/app/routes/app/reports.tsx',
  [paths.inboxPlacement]: 'src/app/routes/app/inbox-testing.tsx',
  [paths.emailVerification]: 'src/app/routes/app/email-verification.tsx',
  [paths.integrations]: 'src/app/routes/app/integrations.tsx',
  [paths.settings]: 'src/app/routes/app/settings.tsx',
  [paths.billing]: 'src/app/routes/app/billing.tsx',
  '/billing-history': 'src/app/routes/app/billing.tsx',
  [paths.serverStats]: 'src/app/routes/app/server-stats.tsx',
  [paths.support]: 'src/app/routes/app/support.tsx',
  [paths.documentation]: 'src/app/routes/app/documentation.tsx',
  [paths.subscription]: 'src/app/routes/app/subscription.tsx',
  '/subscription-confirmation': 'src/app/routes/app/subscription-confirmation.tsx',
  '/update-payment': 'src/app/routes/app/update-payment.tsx',
};

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
  // Its modules first: renderToString draws a suspended screen as its fallback, not the screen. A
  // signed-in screen draws only the shell's frame before the session is restored: none of its modules.
  if (!(path in SIGNED_IN_SHELL_PAGES)) await preloadRoutes(routes, path);
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
