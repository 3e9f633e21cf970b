import { createContext, useContext } from 'react';
import type { RouteObject } from 'react-router';

/**
 * The route table, handed down by AppRoutes: the app layout finds the page title in the matched
 * routes' handles. Through context, so the layout (which the table loads) does not import the table.
 */
export const RouteTableContext = createContext<RouteObject[]>([]);

export function useRouteTable(): RouteObject[] {
  return useContext(RouteTableContext);
}
