import { INVALID_CREDENTIALS, loginThrottledMessage } from '@sendwell/contracts';
import { createRedis, type Logger } from '@sendwell/server-kit';
import { testRedisUrl } from '@sendwell/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginAttemptRepository } from '../src/repositories/login-attempt.repository.js';
import { LoginThrottle } from '../src/services/login-throttle.js';
import { closedPort, login, startHarness, type Harness } from './fixtures.js';
import { factory } from './factory.js';

// Three attempts per account, then 1 s, 2 s, 4 s… capped at 3 s.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_WINDOW: '1m', LOGIN_BACKOFF_MAX: '3s' });
});
afterAll(() => h.close());

const fail = (email: string, times: number) => Promise.all(Array.from({ length: times }, () => login(h.app, email, 'wrong-password')));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('login failures per account', () => {
  it('refuses the account with 429, Retry-After and the message once the limit is reached, even with the right password', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    for (const res of await fail(user.email, 3)) expect(res.statusCode).toBe(401);
    const refused = await login(h.app, user.email, 'right-password');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: loginThrottledMessage(1), retryAfterSeconds: 1 });
    expect(loginThrottledMessage(1)).toBe('Too many failed login attempts. Please try again in 1 second.');
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another account is not slowed, whatever happens to this one.
    const other = await factory(h.db).user({ password: 'other-password' });
    expect((await login(h.app, other.email, 'other-password')).statusCode).toBe(200);
  });

  it('answers an unknown email exactly as a known one, so a lock tells nothing about the account', async () => {
    const known = await factory(h.db).user();
    for (const email of [known.email, 'nobody-at-all@example.com']) {
      const answers = await fail(email, 3);
      expect(answers.map((r) => r.json().message)).toEqual([INVALID_CREDENTIALS, INVALID_CREDENTIALS, INVALID_CREDENTIALS]);
      const refused = await login(h.app, email, 'wrong-password');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(loginThrottledMessage(1));
    }
  });

  it('counts concurrent attempts atomically: a burst gets the limit through and no more', async () => {
    const user = await factory(h.db).user();
    const answers = await fail(user.email, 12);
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(9);
  });

  it('doubles the wait after each attempt past the limit, up to LOGIN_BACKOFF_MAX', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    await fail(user.email, 3);
    await sleep(1_050);
    expect((await login(h.app, user.email, 'wrong-password')).statusCode).toBe(401);
    expect((await login(h.app, user.email, 'wrong-password')).headers['retry-after']).toBe('2');
    await sleep(2_050);
    expect((await login(h.app, user.email, 'wrong-password')).statusCode).toBe(401);
    const capped = await login(h.app, user.email, 'wrong-password');
    expect(capped.headers['retry-after']).toBe('3');
    expect(capped.json().message).toBe('Too many failed login attempts. Please try again in 3 seconds.');
  });

  it('starts afresh after a successful sign-in, in any letter case of the email', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    await fail(user.email, 2);
    expect((await login(h.app, user.email.toUpperCase(), 'right-password')).statusCode).toBe(200);
    for (const res of await fail(` ${user.email.toUpperCase()}`, 2)) expect(res.statusCode).toBe(401);
    expect((await login(h.app, user.email, 'right-password')).statusCode).toBe(200);
  });

  it('keeps no readable address in Redis', async () => {
    const user = await factory(h.db).user();
    await fail(user.email, 1);
    const redis = new Redis(testRedisUrl());
    try {
      const keys = await redis.keys(`${h.queuePrefix}:login-throttle:*`);
      expect(keys.length).toBeGreaterThan(0);
      const local = user.email.split('@')[0]!;
      expect(keys.some((k) => k.toLowerCase().includes(local))).toBe(false);
    } finally {
      redis.disconnect();
    }
  });
});

describe('login throttle without Redis', () => {
  it('lets every attempt through and warns once', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    const redis = createRedis(`redis://127.0.0.1:${await closedPort()}`, 'producer', { retryStrategy: () => null });
    redis.on('error', () => undefined);
    const throttle = new LoginThrottle(new LoginAttemptRepository(redis, 'dead'), { limit: 1, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 60_000 }, 'key', logger);
    try {
      for (let i = 0; i < 3; i++) await expect(throttle.enter('someone@example.com')).resolves.toBeUndefined();
      await expect(throttle.succeeded('someone@example.com')).resolves.toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(JSON.stringify(warnings)).not.toContain('someone@example.com');
    } finally {
      redis.disconnect();
    }
  });
});
