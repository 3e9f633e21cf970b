import { Writable } from 'node:stream';
import { createLogger } from '@sendwell/server-kit';
import { testRedisUrl, uniquePrefix } from '@sendwell/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { closedPortUrl, startEchoServer, type EchoServer } from './helpers.js';

let auth: EchoServer;
const lines: string[] = [];

beforeAll(async () => {
  auth = await startEchoServer('auth');
});

afterAll(async () => {
  await auth?.close();
});

it('logs request paths without their query strings, where links carry tokens', async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const env = loadEnv({ REDIS_URL: testRedisUrl(), RATE_LIMIT_PREFIX: uniquePrefix('gw-logs'), WEB_DIST_DIR: '/nonexistent', AUTH_URL: auth.url, DOMAINS_URL: await closedPortUrl() });
  const deps: Deps = createDeps(env, createLogger('gateway', 'debug', sink));
  const app = await buildApp(deps);
  try {
    expect((await app.inject('/api/auth/verify-email?token=secret-verify-token')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/reset-password-with-token?token=secret-reset-token' })).statusCode).toBe(200);
    // A failing upstream is logged with the request too.
    expect((await app.inject('/api/domains?token=secret-failed-token')).statusCode).toBe(503);
  } finally {
    await app.close();
    await deps.close();
  }
  const output = lines.join('');
  expect(output).toContain('"url":"/api/auth/verify-email"');
  expect(output).toContain('"url":"/api/auth/reset-password-with-token"');
  expect(output).toContain('upstream request failed');
  expect(output).not.toMatch(/secret-(verify|reset|failed)-token/);
});

it('logs each request once, when it completes, with its id, path, status and time', async () => {
  const entries = lines.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(entries.filter((e) => e.msg === 'incoming request')).toEqual([]);
  const completed = entries.filter((e) => e.msg === 'request completed');
  expect(completed.map((e) => [(e.req as { url: string }).url, (e.res as { statusCode: number }).statusCode])).toEqual([
    ['/api/auth/verify-email', 200],
    ['/api/auth/reset-password-with-token', 200],
    ['/api/domains', 503],
  ]);
  for (const e of completed) {
    expect(e.reqId).toEqual(expect.any(String));
    expect(e.responseTime).toEqual(expect.any(Number));
  }
});
