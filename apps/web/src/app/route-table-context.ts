import { createContext, useContext } from 'react';
import { matchRoutes, useLocation, type RouteObject } from 'react-router';
import type { RouteHandle } from './lazy-route';

/**
 * The route table, handed down by AppRoutes: the app layout finds the page title in the matched
 * routes' handles. Through context, so the layout (which the table loads) does not import the table.
 */
export const RouteTableContext = createContext<RouteObject[]>([]);

export function useRouteTable(): RouteObject[] {
  return useContext(RouteTableContext);
}

/** The deepest matched route's `handle.title`: the top bar's page title. */
export function usePageTitle(): string {
  const { pathname } = useLocation();
  const matches = matchRoutes(useRouteTable(), pathname) ?? [];
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i]?.route.handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return 'Sendwell';
}
