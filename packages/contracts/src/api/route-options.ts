import type { apiErrorSchema } from '../errors.js';
import { API_RESPONSES } from '../openapi/responses.js';
import { apiRoute, type ApiRoute, type ApiRouteKey, type ApiRouteOf, type SchemaOf } from './routes.js';

/** The input schemas an entry declares, under the names Fastify's `schema` gives them. */
export type ApiRouteInput<R> = { [F in Extract<keyof R, 'params' | 'querystring' | 'body'>]: R[F] };

/**
 * A call's answers by status, as Fastify's `schema.response` takes them: each success status with the
 * entry's `response`, each error status with `ApiError` (the statuses are `openapi/responses.ts`'s).
 */
export type ApiRouteResponses<K extends ApiRouteKey> = Readonly<Record<number, ([SchemaOf<K, 'response'>] extends [never] ? never : SchemaOf<K, 'response'>) | typeof apiErrorSchema>>;

/** Fastify's route options for an `API_ROUTES` entry: its method, its path under the plugin's prefix, its input schemas and its answers. */
export interface ApiRouteOptions<K extends ApiRouteKey> {
  method: ApiRouteOf<K>['method'];
  url: string;
  schema: ApiRouteInput<ApiRouteOf<K>> & { response: ApiRouteResponses<K> };
}

/**
 * A service's route registration for one call, entirely from the contracts:
 * `app.route({ ...apiRouteOptions(app.prefix, 'GET /api/domains/:id'), handler })`. Method, path, input
 * schemas and answers are declared once, in the call's `API_ROUTES` entry and its statuses; a route adds
 * only its own behaviour (handler, hooks, limits). `prefix` is the prefix the plugin is registered under
 * (Fastify's `app.prefix`); the entry's path must lie under it.
 */
export function apiRouteOptions<K extends ApiRouteKey>(prefix: string, key: K): ApiRouteOptions<K> {
  const route: ApiRoute = apiRoute(key);
  if (route.path !== prefix && !route.path.startsWith(`${prefix}/`)) throw new Error(`${key} is not under the prefix ${prefix}`);
  const schema: Record<string, unknown> = { response: API_RESPONSES[key] };
  if (route.params) schema.params = route.params;
  if (route.querystring) schema.querystring = route.querystring;
  if (route.body) schema.body = route.body;
  return {
    method: route.method,
    // '' at the prefix itself: exactly the prefix (a route that also serves `prefix/` sets `url: '/'` after this).
    url: route.path.slice(prefix.length),
    schema,
  } as unknown as ApiRouteOptions<K>;
}
