import type { ApiAnswer, ApiBody, ApiMethod, ApiPathParams, ApiRouteKey } from '@sendwell/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * The web's calls, typed by their `API_ROUTES` entry in the contracts: a call is named by its key
 * (`'GET /api/domains/:id'`), its URL is that entry's path with the parameters filled in, and its
 * answer is the entry's `response` type, so a call cannot be read as another's answer. Types only
 * come from the contracts: no schema (nor zod) is loaded here.
 */
type PathOf<K extends ApiRouteKey> = K extends `${string} ${infer P}` ? P : never;

type ParamsInput<K extends ApiRouteKey> = PathOf<K> extends `${string}:${string}` ? { params: ApiPathParams<PathOf<K>> } : { params?: never };
type BodyInput<K extends ApiRouteKey> = [ApiBody<K>] extends [never] ? { body?: never } : { body: ApiBody<K> };

/** What a call takes: its path parameters and its body, each where its entry has one. */
export type ApiCallInput<K extends ApiRouteKey> = ParamsInput<K> & BodyInput<K>;
type ApiCallArgs<K extends ApiRouteKey> = object extends ApiCallInput<K> ? [input?: ApiCallInput<K>] : [input: ApiCallInput<K>];

/** The URL of a call: its path with each `:name` segment replaced by its URI-encoded value. */
export function apiUrl<K extends ApiRouteKey>(key: K, ...[params]: PathOf<K> extends `${string}:${string}` ? [params: ApiPathParams<PathOf<K>>] : []): string {
  const path = key.slice(key.indexOf(' ') + 1);
  const values = (params ?? {}) as Record<string, string | number>;
  return path.replace(/:(\w+)/g, (_segment, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${key} needs its ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Makes the call and answers its entry's `response` type (JSON as the service wrote it; a failure throws `ApiRequestError`). */
export function callApi<K extends ApiRouteKey>(key: K, ...[input]: ApiCallArgs<K>): Promise<ApiAnswer<K>> {
  const method = key.slice(0, key.indexOf(' ')) as ApiMethod;
  const { params, body } = (input ?? {}) as { params?: Record<string, string | number>; body?: unknown };
  const url = (apiUrl as (key: ApiRouteKey, params?: Record<string, string | number>) => string)(key, params);
  return apiRequest<ApiAnswer<K>>(method, url, body);
}
