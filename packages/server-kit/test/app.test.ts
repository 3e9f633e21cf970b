import { createDb, sql } from '@sendwell/db';
import { createTestDb } from '@sendwell/testing';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { conflict, planLimit, rateLimited, SERVICE_BUSY } from '../src/errors.js';
import { createLogger } from '../src/logger.js';

let app: App;
beforeAll(async () => {
  app = createApp({ logger: createLogger('test', 'silent'), bodyLimit: 1024 });
  app.post('/echo', { schema: { body: z.object({ name: z.string().min(4, 'Domain must be at least 4 characters.') }) } }, async (req) => req.body);
  app.get('/conflict', async () => {
    throw conflict('An account with this email already exists');
  });
  app.get('/limit', async () => {
    throw planLimit('Your free plan is limited to 1 domain');
  });
  app.get('/slow-down', async () => {
    throw rateLimited('Please wait before scanning again', 42);
  });
  app.get('/boom', async () => {
    throw new Error('secret database detail');
  });
  app.get('/bad-answer', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: 'yes' }) as never);
  await app.ready();
});
afterAll(() => app.close());

describe('createApp', () => {
  it('answers a schema failure with 400 and the schema’s own message', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'ab' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Domain must be at least 4 characters.' });
    expect(res.json().details.issues[0]).toEqual({ path: 'name', message: 'Domain must be at least 4 characters.' });
  });

  it('answers malformed JSON and oversized bodies with 400-range errors, never 500', async () => {
    const bad = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON' });
    const big = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'x'.repeat(4096) } });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The request body is too large');
    const text = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/csv' }, payload: 'a,b' });
    expect(text.statusCode).toBe(415);
  });

  it('maps AppError codes to statuses and keeps the client flags', async () => {
    expect((await app.inject('/conflict')).statusCode).toBe(409);
    const limit = await app.inject('/limit');
    expect(limit.statusCode).toBe(403);
    expect(limit.json()).toMatchObject({ code: 'PLAN_LIMIT', requiresUpgrade: true });
    const slow = await app.inject('/slow-down');
    expect(slow.statusCode).toBe(429);
    expect(slow.headers['retry-after']).toBe('42');
    expect(slow.json().retryAfterSeconds).toBe(42);
  });

  it('hides the message of an unexpected error', async () => {
    const res = await app.inject('/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'INTERNAL', message: 'Internal server error' });
    expect(res.body).not.toContain('secret');
  });

  it('treats an answer that breaks its own schema as a server error', async () => {
    const res = await app.inject('/bad-answer');
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('INTERNAL');
  });

  it('answers unknown routes with JSON 404', async () => {
    const res = await app.inject('/api/nothing?x=1');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Route GET /api/nothing not found' });
  });

  it('takes a safe x-request-id, echoes it and puts it in errors; makes one otherwise', async () => {
    const given = await app.inject({ url: '/conflict', headers: { 'x-request-id': 'req-123' } });
    expect(given.headers['x-request-id']).toBe('req-123');
    expect(given.json().requestId).toBe('req-123');
    const unsafe = await app.inject({ url: '/conflict', headers: { 'x-request-id': 'bad id\nwith newline' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('createApp without response validation', () => {
  it('serializes answers as they are, for production where the mappers already build typed DTOs', async () => {
    const lean = createApp({ logger: createLogger('test', 'silent'), validateResponses: false });
    lean.get('/answer', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    await lean.ready();
    const res = await lean.inject('/answer');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ ok: true });
    await lean.close();
  });
});

describe('an exhausted database pool', () => {
  it('answers 503 with Retry-After and a message, never 500, when no connection frees up in time', async () => {
    const t = await createTestDb();
    const db = createDb({ connectionString: t.url, max: 1 });
    const busy = createApp({ logger: createLogger('test', 'silent') });
    busy.get('/read', async () => (await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]);
    await busy.ready();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The pool's only connection stays busy past pg-pool's connection timeout (5 s).
    const holder = db.connection().execute(() => held);
    try {
      const res = await busy.inject('/read');
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: SERVICE_BUSY });
    } finally {
      release();
      await holder;
      await busy.close();
      await db.destroy();
      await t.close();
    }
  }, 15_000);
});

