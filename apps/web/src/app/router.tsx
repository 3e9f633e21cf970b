import { useRoutes, type RouteObject } from 'react-router';
import { lazyRoute } from './lazy-route';
import { RouteTableContext } from './route-table-context';
import { RequireAuthRoute, PublicOnlyRoute } from './routes/guards';
import { NotFoundRoute } from './routes/not-found';
import { RootRoute } from './routes/root';

/**
 * The route table (part 2 §2.1), in React Router's declarative mode: its data router (loaders,
 * `lazy`, `useMatches`) was 17 KB gzip of every page's first load, and the app used it only to load
 * screens lazily and prefetch their reads, which `lazyRoute` does. Every screen is loaded lazily so
 * `/` only loads the landing page.
 *
 * Extension point: signed-in screens go in the `children` of the shell route below, e.g.
 * `lazyRoute({ path: 'domains', title: 'Domains', load: () => import('./routes/app/domains') })`,
 * each route module exporting `Component` (and `clientLoader(queryClient)` when it prefetches).
 * Routes that are not listed render the not-found screen.
 */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    children: [
      {
        element: <PublicOnlyRoute />,
        children: [
          lazyRoute({ index: true, load: () => import('./routes/landing') }),
          lazyRoute({ path: 'login', load: () => import('./routes/login') }),
          lazyRoute({ path: 'register', load: () => import('./routes/register') }),
        ],
      },
      lazyRoute({ path: 'reset-password', load: () => import('./routes/reset-password') }),
      lazyRoute({ path: 'subscription-comparison', load: () => import('./routes/subscription-comparison') }),
      lazyRoute({ path: 'verify-email', load: () => import('./routes/verify-email') }),
      lazyRoute({ path: 'quick-check/:domain?', load: () => import('./routes/quick-check') }),
      {
        element: <RequireAuthRoute />,
        children: [
          lazyRoute({
            load: () => import('./routes/app/app-layout'),
            children: [
              lazyRoute({ path: 'dashboard', title: 'Dashboard', load: () => import('./routes/app/dashboard') }),
              lazyRoute({ path: 'domains', title: 'Domains', load: () => import('./routes/app/domains') }),
              ...['domains/:name', 'domain/:name'].map((path) => lazyRoute({ path, title: 'Domain Details', load: () => import('./routes/app/domain-detail') })),
              lazyRoute({ path: 'domain-history', title: 'Domain History', load: () => import('./routes/app/domain-history') }),
              lazyRoute({ path: 'domain-history/:name/scan/:scanId', title: 'Scan Details', load: () => import('./routes/app/history-scan') }),
              lazyRoute({ path: 'domain-history/:name/last-scan', title: 'Last Scan', load: () => import('./routes/app/history-last-scan') }),
              lazyRoute({ path: 'domain/:name/:timestamp', title: 'Scan Details', load: () => import('./routes/app/domain-scan-at-time') }),
              lazyRoute({ path: 'email-verification', title: 'Email Verification', load: () => import('./routes/app/email-verification') }),
              lazyRoute({ path: 'inbox-placement', title: 'Inbox Testing', load: () => import('./routes/app/inbox-testing') }),
              lazyRoute({ path: 'fixing-guide/:name/:type', title: 'Fixing Guide', load: () => import('./routes/app/fixing-guide') }),
              lazyRoute({ path: 'server-stats', title: 'Server Statistics', load: () => import('./routes/app/server-stats') }),
              lazyRoute({ path: 'settings', title: 'Settings', load: () => import('./routes/app/settings') }),
              lazyRoute({ path: 'integrations', title: 'Integrations', load: () => import('./routes/app/integrations') }),
              lazyRoute({ path: 'reports', title: 'Reports', load: () => import('./routes/app/reports') }),
              lazyRoute({ path: 'support', title: 'Help & Support', load: () => import('./routes/app/support') }),
              lazyRoute({ path: 'documentation', title: 'Documentation', load: () => import('./routes/app/documentation') }),
              lazyRoute({ path: 'subscription', title: 'Subscription', load: () => import('./routes/app/subscription') }),
              // The payment return screen has two addresses (part 2 §2.1).
              ...['subscription/confirmation', 'subscription-confirmation'].map((path) => lazyRoute({ path, title: 'Payment', load: () => import('./routes/app/subscription-confirmation') })),
              lazyRoute({ path: 'update-payment', title: 'Update Payment Method', load: () => import('./routes/app/update-payment') }),
              ...['billing', 'billing-history'].map((path) => lazyRoute({ path, title: 'Billing History', load: () => import('./routes/app/billing') })),
            ],
          }),
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function AppRoutes() {
  return <RouteTableContext.Provider value={routes}>{useRoutes(routes)}</RouteTableContext.Provider>;
}
