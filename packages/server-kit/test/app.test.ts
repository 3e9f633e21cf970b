import { Writable } from 'node:stream';
import { connect } from 'node:net';
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

describe('a database connection terminated under a query', () => {
  it('answers 503 with Retry-After, never 500, so the client tries again once Postgres is back', async () => {
    const t = await createTestDb();
    const db = createDb({ connectionString: t.url, max: 2, applicationName: 'sendwell-terminated-test' });
    const admin = createDb({ connectionString: t.url, max: 1 });
    const app503 = createApp({ logger: createLogger('test', 'silent') });
    app503.get('/slow', async () => (await sql<{ one: number }>`select 1 as one from pg_sleep(5)`.execute(db)).rows[0]);
    await app503.ready();
    try {
      const answer = app503.inject('/slow');
      // As an operator's pg_terminate_backend (or a Postgres restart) would, once the query runs.
      await expect
        .poll(async () => {
          const killed = await sql<{ pid: number }>`
            select pg_terminate_backend(pid) as pid from pg_stat_activity
            where application_name = 'sendwell-terminated-test' and query like '%pg_sleep%' and state = 'active'`.execute(admin);
          return killed.rows.length;
        }, { timeout: 4_000, interval: 50 })
        .toBe(1);
      const res = await answer;
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: SERVICE_BUSY });
    } finally {
      await app503.close();
      await db.destroy();
      await admin.destroy();
      await t.close();
    }
  }, 15_000);
});

describe('a value Postgres refuses', () => {
  it('answers 400 VALIDATION_FAILED with a generic message, logs the SQLSTATE at warn and never the value', async () => {
    const t = await createTestDb();
    const db = createDb({ connectionString: t.url, max: 2 });
    await sql`create table names (name varchar(8) not null)`.execute(db);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const guarded = createApp({ logger: createLogger('test', 'warn', sink) });
    const value = z.object({ value: z.string() });
    // Each route passes the client's text to Postgres unchecked, as a schema that missed a case would.
    guarded.post('/integer', { schema: { body: value } }, async (req) => (await sql`select ${req.body.value}::integer as n`.execute(db)).rows[0]);
    guarded.post('/timestamp', { schema: { body: value } }, async (req) => (await sql`select ${req.body.value}::timestamptz as t`.execute(db)).rows[0]);
    guarded.post('/name', { schema: { body: value } }, async (req) => {
      await sql`insert into names (name) values (${req.body.value})`.execute(db);
      return { ok: true };
    });
    guarded.get('/missing-table', async () => (await sql`select * from no_such_table`.execute(db)).rows);
    await guarded.ready();
    const post = (url: string, secret: string) => guarded.inject({ method: 'POST', url, payload: { value: secret } });
    try {
      const cases: Array<[string, string, string]> = [
        ['/integer', 'abc-secret', '22P02'], // invalid text representation
        ['/integer', '2147483648', '22003'], // numeric value out of range
        ['/name', 'nul\u0000secret', '22021'], // NUL: invalid byte sequence for UTF8
        ['/name', 'much-too-long-secret', '22001'], // string data right truncation
        ['/timestamp', 'not-a-date-secret', '22007'], // invalid datetime format
        ['/timestamp', '2026-13-45 10:00', '22008'], // datetime field overflow
      ];
      for (const [url, secret, sqlstate] of cases) {
        lines.length = 0;
        const res = await post(url, secret);
        expect(res.statusCode, `${url} ${sqlstate}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'A value in the request is out of range or not valid' });
        const logged = lines.map((line) => JSON.parse(line) as { level: number; sqlstate?: string; msg: string });
        expect(logged).toContainEqual(expect.objectContaining({ level: 40, sqlstate, msg: 'value refused by Postgres' }));
        expect(lines.join('')).not.toContain(secret.slice(-6));
      }
      // Any other database error stays a server error: it is a fault, not a bad value.
      expect((await guarded.inject('/missing-table')).statusCode).toBe(500);
    } finally {
      await guarded.close();
      await db.destroy();
      await t.close();
    }
  }, 15_000);
});

describe('request logs', () => {
  it('never carry the query string, where links put their tokens', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logged = createApp({ logger: createLogger('test', 'info', sink) });
    logged.get('/api/auth/verify-email', async () => ({ ok: true }));
    await logged.ready();
    const res = await logged.inject('/api/auth/verify-email?token=secret-token-value&next=%2Fdashboard');
    expect(res.statusCode).toBe(200);
    await logged.close();
    const output = lines.join('');
    expect(output).toContain('"url":"/api/auth/verify-email"');
    expect(output).not.toContain('secret-token-value');
    expect(output).not.toContain('dashboard');
    // Every service writes one line per request, when it completes, with its id, status and time.
    const entries = output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((e) => e.msg === 'incoming request')).toEqual([]);
    const completed = entries.filter((e) => e.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ reqId: expect.any(String), res: { statusCode: 200 }, responseTime: expect.any(Number) });
  });
});

it('answers a URL the router cannot decode with a 400 ApiError', async () => {
  const res = await app.inject('/api/%zz');
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', requestId: expect.any(String) });
  expect(res.json().message).toContain('not a valid url');
});

describe('a request the HTTP parser refuses', () => {
  /** Sends raw bytes to a listening app and reads everything it answers before closing. */
  async function rawAnswer(request: string): Promise<{ status: number; body: unknown }> {
    const listening = createApp({ logger: createLogger('test', 'silent') });
    const address = await listening.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = new URL(address);
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
        let received = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
        socket.on('end', () => resolve(received)).on('error', reject);
      });
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), body: body === '' ? undefined : JSON.parse(body) };
    } finally {
      await listening.close();
    }
  }

  it('answers bad framing with an ApiError 400, not Fastify’s own body', async () => {
    const answer = await rawAnswer('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The request could not be read', requestId: expect.any(String) });
  });

  it('answers headers over the limit with an ApiError 431', async () => {
    const answer = await rawAnswer(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The request headers are too large' });
  });

  it('answers a HEAD without a body, which its client would read as the start of another answer', async () => {
    const answer = await rawAnswer(`HEAD / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toBeUndefined();
  });
});
