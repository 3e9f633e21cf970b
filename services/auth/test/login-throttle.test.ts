import { INVALID_CREDENTIALS, loginThrottledMessage } from '@sendwell/contracts';
import { createRedis, type Logger } from '@sendwell/server-kit';
import { testRedisUrl } from '@sendwell/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginAttemptRepository } from '../src/repositories/login-attempt.repository.js';
import { LoginThrottle } from '../src/services/login-throttle.js';
import { closedPort, login, startHarness, type Harness } from './fixtures.js';
import { factory } from './factory.js';

// Three attempts per account and network (twelve from all unknown networks), then 1 s, 2 s, 4 s… capped at 3 s.
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

/** A sign-in through the gateway (a trusted proxy on loopback) from a client at `ip`. */
const loginFrom = (ip: string, email: string, password: string) =>
  h.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-forwarded-for': ip }, payload: { email, password } });
const failFrom = async (ip: string, email: string, times: number) => {
  for (let i = 0; i < times; i++) expect((await loginFrom(ip, email, 'wrong-password')).statusCode).toBe(401);
};

describe('login failures per client network', () => {
  it("does not let a stranger's failures delay the owner on a network they signed in from before", async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    expect((await loginFrom('198.51.100.20', user.email, 'right-password')).statusCode).toBe(200);

    await failFrom('203.0.113.7', user.email, 3);
    // The attacker's network is refused, even with the right password, and so is the rest of its /24.
    for (const ip of ['203.0.113.7', '203.0.113.99']) {
      const refused = await loginFrom(ip, user.email, 'right-password');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
    }
    // The owner, from another address of the network they signed in from, gets in at once.
    expect((await loginFrom('198.51.100.21', user.email, 'right-password')).statusCode).toBe(200);
  });

  it('still limits guessing from the owner\'s own network, in a bucket of its own', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    expect((await loginFrom('2001:db8:aa:bb01::1', user.email, 'right-password')).statusCode).toBe(200);
    await failFrom('2001:db8:aa:bbff::2', user.email, 3);
    expect((await loginFrom('2001:db8:aa:bb01::1', user.email, 'right-password')).statusCode).toBe(429);
    // Another /56 is another network, not slowed by these failures.
    expect((await loginFrom('2001:db8:aa:cc00::1', user.email, 'right-password')).statusCode).toBe(200);
  });

  it('caps guessing spread over many new networks, and the owner on a known network is still let in', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    expect((await loginFrom('198.51.100.20', user.email, 'right-password')).statusCode).toBe(200);
    // Twelve failures from four unknown networks, none past its own limit of three (the owner's first
    // sign-in, from a network then new, is not one of them)…
    for (const net of [1, 2, 3, 4]) await failFrom(`192.0.${net}.1`, user.email, 3);
    // …lock every network the account never signed in from, a fresh one included.
    const refused = await loginFrom('100.64.9.9', user.email, 'right-password');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(loginThrottledMessage(1));
    expect((await loginFrom('198.51.100.20', user.email, 'right-password')).statusCode).toBe(200);
  });

  it('keeps no readable client address in Redis', async () => {
    const user = await factory(h.db).user({ password: 'right-password' });
    expect((await loginFrom('198.51.100.77', user.email, 'right-password')).statusCode).toBe(200);
    await failFrom('203.0.113.77', user.email, 1);
    const redis = new Redis(testRedisUrl());
    try {
      const keys = await redis.keys(`${h.queuePrefix}:login-throttle:*`);
      const networks = await Promise.all(keys.filter((k) => k.endsWith(':known-networks')).map((k) => redis.zrange(k, 0, -1)));
      expect(networks.flat().length).toBeGreaterThan(0);
      expect(JSON.stringify([keys, networks])).not.toMatch(/198\.51|203\.0/);
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
    const throttle = new LoginThrottle(new LoginAttemptRepository(redis, 'dead'), { limit: 1, unknownNetworksLimit: 4, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 60_000 }, 'key', logger);
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
