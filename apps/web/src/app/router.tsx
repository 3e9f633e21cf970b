import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { RequireAuthRoute, PublicOnlyRoute } from './routes/guards';
import { NotFoundRoute } from './routes/not-found';
import { RootRoute } from './routes/root';
import type { RouteHandle } from './routes/app/app-layout';

/**
 * The route table (part 2 §2.1). Every screen is loaded lazily so `/` only loads the landing page;
 * loaders receive the query client and prefetch through it.
 *
 * Extension point: signed-in screens go in the `children` of the shell route below, e.g.
 * `{ path: 'domains', handle: { title: 'Domains' }, lazy: () => import('./routes/app/domains') }`,
 * each route module exporting `Component` (and `clientLoader(queryClient)` when it prefetches).
 * Routes that are not listed render the not-found screen.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      element: <RootRoute />,
      hydrateFallbackElement: <></>,
      children: [
        {
          element: <PublicOnlyRoute />,
          children: [
            { index: true, lazy: () => import('./routes/landing') },
            { path: 'login', lazy: () => import('./routes/login') },
            { path: 'register', lazy: () => import('./routes/register') },
          ],
        },
        { path: 'reset-password', lazy: () => import('./routes/reset-password') },
        { path: 'subscription-comparison', lazy: () => import('./routes/subscription-comparison') },
        { path: 'verify-email', lazy: () => import('./routes/verify-email') },
        {
          path: 'quick-check/:domain?',
          lazy: async () => {
            const route = await import('./routes/quick-check');
            return { Component: route.Component, loader: route.clientLoader(queryClient) };
          },
        },
        {
          element: <RequireAuthRoute />,
          children: [
            {
              lazy: () => import('./routes/app/app-layout'),
              children: [
                {
                  path: 'dashboard',
                  handle: { title: 'Dashboard' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/dashboard');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                },
                {
                  path: 'domains',
                  handle: { title: 'Domains' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/domains');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                },
                ...['domains/:name', 'domain/:name'].map((path) => ({
                  path,
                  handle: { title: 'Domain Details' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/domain-detail');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                })),
                {
                  path: 'domain-history',
                  handle: { title: 'Domain History' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/domain-history');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                },
                { path: 'domain-history/:name/scan/:scanId', handle: { title: 'Scan Details' } satisfies RouteHandle, lazy: () => import('./routes/app/history-scan') },
                { path: 'domain-history/:name/last-scan', handle: { title: 'Last Scan' } satisfies RouteHandle, lazy: () => import('./routes/app/history-last-scan') },
                { path: 'domain/:name/:timestamp', handle: { title: 'Scan Details' } satisfies RouteHandle, lazy: () => import('./routes/app/domain-scan-at-time') },
                // The verification tool has two addresses (part 2 §2.1).
                ...['email-verification', 'inbox-placement'].map((path) => ({
                  path,
                  handle: { title: 'Email Verification' } satisfies RouteHandle,
                  lazy: () => import('./routes/app/email-verification'),
                })),
                { path: 'fixing-guide/:name/:type', handle: { title: 'Fixing Guide' } satisfies RouteHandle, lazy: () => import('./routes/app/fixing-guide') },
                { path: 'server-stats', handle: { title: 'Server Statistics' } satisfies RouteHandle, lazy: () => import('./routes/app/server-stats') },
                { path: 'settings', handle: { title: 'Settings' } satisfies RouteHandle, lazy: () => import('./routes/app/settings') },
                { path: 'integrations', handle: { title: 'Integrations' } satisfies RouteHandle, lazy: () => import('./routes/app/integrations') },
                { path: 'reports', handle: { title: 'Reports' } satisfies RouteHandle, lazy: () => import('./routes/app/reports') },
                { path: 'support', handle: { title: 'Help & Support' } satisfies RouteHandle, lazy: () => import('./routes/app/support') },
                { path: 'documentation', handle: { title: 'Documentation' } satisfies RouteHandle, lazy: () => import('./routes/app/documentation') },
                {
                  path: 'subscription',
                  handle: { title: 'Subscription' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/subscription');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                },
                // The payment return screen has two addresses (part 2 §2.1).
                ...['subscription/confirmation', 'subscription-confirmation'].map((path) => ({
                  path,
                  handle: { title: 'Payment' } satisfies RouteHandle,
                  lazy: () => import('./routes/app/subscription-confirmation'),
                })),
                { path: 'update-payment', handle: { title: 'Update Payment Method' } satisfies RouteHandle, lazy: () => import('./routes/app/update-payment') },
                ...['billing', 'billing-history'].map((path) => ({
                  path,
                  handle: { title: 'Billing History' } satisfies RouteHandle,
                  lazy: async () => {
                    const route = await import('./routes/app/billing');
                    return { Component: route.Component, loader: route.clientLoader(queryClient) };
                  },
                })),
              ],
            },
          ],
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}
