import { readApiError, type ApiError } from '@sendwell/contracts';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { storageKeys } from '@/config/storage-keys';

/**
 * The one request layer of the app (part 1 §2 "Shared request behaviour", §7 end).
 * Every call carries the cookie; a stored `auth_token` also travels as a Bearer header; a JSON
 * content type is sent only with a body. A failed call raises an `ApiRequestError` whose message is
 * the spec's '{status}: {body text}' and which keeps the parsed `ApiError` for screens to show.
 */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  readonly status: number;
  readonly body: string;
  /** The server's error answer when it parsed as the contracts' `ApiError`. */
  readonly apiError: ApiError | null;

  constructor(message: string, status: number, body: string, apiError: ApiError | null) {
    super(message);
    this.status = status;
    this.body = body;
    this.apiError = apiError;
  }

  get requiresUpgrade(): boolean {
    return this.apiError?.requiresUpgrade === true;
  }
  get currencyLocked(): boolean {
    return this.apiError?.currencyLocked === true;
  }
  get retryAfterSeconds(): number | undefined {
    return this.apiError?.retryAfterSeconds;
  }
}

/**
 * Reads an error body the way the contracts' `apiErrorSchema` does, without zod: the schema library
 * was loaded on a screen's first failed call (25.7 KB on /settings, whose payment-method read answers
 * 404 to a user without a card).
 */
function parseApiError(body: string): ApiError | null {
  try {
    return readApiError(JSON.parse(body));
  } catch {
    return null;
  }
}

function readToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(storageKeys.token) ?? null;
  } catch {
    return null;
  }
}

export function requestHeaders(hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** The `ApiRequestError` of a failed answer, for the few calls that read something other than JSON (downloads). */
export async function failure(res: Response, message: (text: string) => string): Promise<ApiRequestError> {
  const text = await res.text().catch(() => '');
  return new ApiRequestError(message(text), res.status, text, parseApiError(text));
}

async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A change or an explicit read: `'{status}: {body text}'` (or the status text) on failure. */
export async function apiRequest<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<T> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: requestHeaders(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    signal: init.signal,
  });
  if (!res.ok) throw await failure(res, (text) => `${res.status}: ${text || res.statusText}`);
  return readJson<T>(res);
}

export const api = {
  get: <T>(url: string, init?: { signal?: AbortSignal }) => apiRequest<T>('GET', url, undefined, init),
  post: <T>(url: string, body?: unknown) => apiRequest<T>('POST', url, body),
  put: <T>(url: string, body?: unknown) => apiRequest<T>('PUT', url, body),
  delete: <T>(url: string) => apiRequest<T>('DELETE', url),
};

/**
 * The default query function: the first element of the key is the URL, read with GET as JSON.
 * Its failure message is 'HTTP {status}: {statusText}' (part 1 §7).
 */
export async function defaultQueryFn({ queryKey, signal }: QueryFunctionContext): Promise<unknown> {
  const url = queryKey[0];
  if (typeof url !== 'string') throw new Error('The first element of a query key must be its URL');
  const res = await fetch(url, { method: 'GET', credentials: 'include', headers: requestHeaders(false), signal });
  if (!res.ok) throw await failure(res, () => `HTTP ${res.status}: ${res.statusText}`);
  return readJson(res);
}

/** The text a screen shows for a failed call: the server's message, else the spec's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.apiError?.message || fallback;
  return fallback;
}

export function isClientError(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
}
