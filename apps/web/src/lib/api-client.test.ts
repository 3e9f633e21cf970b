import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, startTestServer } from '@/testing/http-server';
import { ApiRequestError, api, defaultQueryFn, errorMessage } from './api-client';
import { queryDefaults } from './query-client';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/ok') return reply(res, 200, { hello: 'world' });
    if (path === '/empty') return reply(res, 204, '');
    if (path === '/text-error') return reply(res, 500, 'boom');
    if (path === '/no-body-error') return reply(res, 503, '', 'Service Unavailable');
    if (path === '/not-found') return reply(res, 404, { code: 'NOT_FOUND', message: 'Domain not found' }, 'Not Found');
    if (path === '/limit') return reply(res, 403, { code: 'PLAN_LIMIT', message: 'Your free plan is limited to 1 domain.', requiresUpgrade: true });
    if (path === '/locked') return reply(res, 403, { code: 'FORBIDDEN', message: 'Locked', currencyLocked: true, retryAfterSeconds: 30 });
    return reply(res, 500, { code: 'INTERNAL', message: 'Internal error' }, 'Internal Server Error');
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const last = () => server.requests[server.requests.length - 1]!;

describe('request headers', () => {
  it('sends no content type and no authorization on a bodiless call without a stored token', async () => {
    await expect(api.get(server.url('/ok'))).resolves.toEqual({ hello: 'world' });
    expect(last().headers['content-type']).toBeUndefined();
    expect(last().headers.authorization).toBeUndefined();
  });

  it('sends a JSON content type only with a body, and the stored token as a Bearer header', async () => {
    localStorage.setItem('auth_token', 'tok-123');
    await api.post(server.url('/ok'), { name: 'example.com' });
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().headers.authorization).toBe('Bearer tok-123');
    expect(JSON.parse(last().body)).toEqual({ name: 'example.com' });

    await api.post(server.url('/ok'));
    expect(last().headers['content-type']).toBeUndefined();
    expect(last().headers.authorization).toBe('Bearer tok-123');
  });

  it('reads an empty answer as null', async () => {
    await expect(api.delete(server.url('/empty'))).resolves.toBeNull();
  });
});

describe('error formats', () => {
  it("raises '{status}: {body text}' for a failed call", async () => {
    const error = await api.get(server.url('/text-error')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe('500: boom');
  });

  it('falls back to the status text when the body is empty', async () => {
    const error = await api.post(server.url('/no-body-error')).catch((e: unknown) => e);
    expect((error as Error).message).toBe('503: Service Unavailable');
  });

  it("raises 'HTTP {status}: {statusText}' from the default read, keeping the parsed ApiError", async () => {
    const error = (await defaultQueryFn({ queryKey: [server.url('/not-found')], signal: new AbortController().signal } as never).catch(
      (e: unknown) => e,
    )) as ApiRequestError;
    expect(error.message).toBe('HTTP 404: Not Found');
    expect(error.status).toBe(404);
    expect(error.apiError).toMatchObject({ code: 'NOT_FOUND', message: 'Domain not found' });
    expect(errorMessage(error, 'fallback')).toBe('Domain not found');
  });

  it('exposes requiresUpgrade, currencyLocked and retryAfterSeconds from the answer', async () => {
    const limit = (await api.post(server.url('/limit'), { name: 'b.com' }).catch((e: unknown) => e)) as ApiRequestError;
    expect(limit.requiresUpgrade).toBe(true);
    expect(limit.message).toContain('limited to 1 domain');
    const locked = (await api.put(server.url('/locked'), {}).catch((e: unknown) => e)) as ApiRequestError;
    expect(locked.currencyLocked).toBe(true);
    expect(locked.retryAfterSeconds).toBe(30);
  });

  it('uses the fallback text when the answer is not an ApiError', async () => {
    const error = await api.get(server.url('/text-error')).catch((e: unknown) => e);
    expect(errorMessage(error, 'Failed to log in. Please check your credentials.')).toBe('Failed to log in. Please check your credentials.');
  });
});

describe('query defaults', () => {
  const client = () =>
    new QueryClient({
      defaultOptions: { queries: { ...queryDefaults.queries, retryDelay: 0 }, mutations: queryDefaults.mutations },
    });

  it('has the freshness defaults of part 1 §9', () => {
    expect(queryDefaults.queries).toMatchObject({ staleTime: 60_000, gcTime: 300_000, refetchOnWindowFocus: false, refetchInterval: false });
  });

  it('reads through the first key element as URL and does not retry after a 4xx', async () => {
    const qc = client();
    await expect(qc.fetchQuery({ queryKey: [server.url('/not-found')] })).rejects.toThrow('HTTP 404: Not Found');
    expect(server.requests.filter((r) => r.url === '/not-found')).toHaveLength(1);
  });

  it('retries other failures at most 3 times', async () => {
    const qc = client();
    await expect(qc.fetchQuery({ queryKey: [server.url('/server-error')], retry: queryDefaults.queries.retry })).rejects.toThrow(
      'HTTP 500: Internal Server Error',
    );
    expect(server.requests.filter((r) => r.url === '/server-error')).toHaveLength(4);
  });

  it('never retries a mutation', async () => {
    const qc = client();
    const mutation = qc.getMutationCache().build(qc, { mutationFn: () => api.post(server.url('/server-error')) });
    await expect(mutation.execute(undefined)).rejects.toThrow('500:');
    expect(server.requests.filter((r) => r.url === '/server-error')).toHaveLength(1);
  });
});
