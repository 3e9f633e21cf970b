import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { use, useEffect, type ComponentType } from 'react';
import { matchRoutes, useLocation, useParams, type Params, type RouteObject } from 'react-router';

export interface RouteLoaderArgs {
  params: Params;
}

/** What a route module exports: its screen, and optionally reads to start as soon as it is visited. */
export interface RouteModule {
  Component: ComponentType;
  clientLoader?: (queryClient: QueryClient) => (args: RouteLoaderArgs) => unknown;
}

export type RouteLoad = () => Promise<RouteModule>;

/** A route's `handle`: the top bar's title, and the module of its screen. */
export interface RouteHandle {
  title?: string;
  load?: RouteLoad;
}

const loaded = new Map<RouteLoad, RouteModule>();
const loading = new Map<RouteLoad, Promise<RouteModule>>();

/** Loads a route's module once; every caller of the same `load` shares the one promise. */
export function loadRoute(load: RouteLoad): Promise<RouteModule> {
  let promise = loading.get(load);
  if (!promise) {
    promise = load().then((module) => {
      loaded.set(load, module);
      return module;
    });
    loading.set(load, promise);
  }
  return promise;
}

/**
 * Loads the modules of every route `path` matches, so the first render (and hydration of a page
 * prerendered at build time) draws the screen at once instead of suspending on its code.
 */
export async function preloadRoutes(routes: RouteObject[], path: string): Promise<void> {
  const matches = matchRoutes(routes, path) ?? [];
  await Promise.all(matches.map(({ route }) => (route.handle as RouteHandle | undefined)?.load).flatMap((load) => (load ? [loadRoute(load)] : [])));
}

/**
 * A route's screen, its code loaded on the first visit. Until the module is there it suspends: the
 * router changes location in a transition, so the previous screen stays up meanwhile. On each visit
 * the module's `clientLoader` starts the screen's reads (a prefetch; the screen's queries share them).
 */
function RouteScreen({ load }: { load: RouteLoad }) {
  const module = loaded.get(load) ?? use(loadRoute(load));
  const queryClient = useQueryClient();
  const params = useParams();
  const { key } = useLocation();
  const { clientLoader } = module;
  useEffect(() => {
    clientLoader?.(queryClient)({ params });
    // Once per visit (location key), like a loader; `params` belong to that visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clientLoader, queryClient, key]);
  return <module.Component />;
}

/** A route object whose screen is the module `load` loads, with its title for the top bar. */
export function lazyRoute({ title, load, ...route }: { path?: string; index?: true; title?: string; load: RouteLoad; children?: RouteObject[] }): RouteObject {
  return { ...route, element: <RouteScreen load={load} />, handle: { title, load } satisfies RouteHandle } as RouteObject;
}
