import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { baseEnvSchema, DEV_JWT_SECRET, envBoolean, EnvError, envPort, parseEnv, requireProductionSettings } from './env.js';

describe('envBoolean', () => {
  it.each([
    ['true', true], ['1', true], ['yes', true], ['on', true],
    ['false', false], ['FALSE', false], ['0', false], ['no', false], ['off', false], [' ', false],
  ])('reads %j as %s', (input, expected) => {
    expect(envBoolean.parse(input)).toBe(expected);
  });
});

describe('parseEnv', () => {
  const schema = baseEnvSchema.extend({ PORT: envPort(3001), FLAG: envBoolean.default(false) }).superRefine(requireProductionSettings);

  it('applies every default', () => {
    const env = parseEnv('auth', schema, {});
    expect(env).toMatchObject({ PORT: 3001, FLAG: false, NODE_ENV: 'development', REDIS_URL: 'redis://127.0.0.1:6379' });
  });

  it('treats empty strings as unset', () => {
    expect(parseEnv('auth', schema, { PORT: '' }).PORT).toBe(3001);
  });

  it('names the bad setting and the service', () => {
    expect(() => parseEnv('auth', schema, { PORT: '70000' })).toThrowError(EnvError);
    expect(() => parseEnv('auth', schema, { PORT: '70000' })).toThrowError(/^Invalid environment for auth: PORT: /);
    expect(() => parseEnv('auth', schema, { DATABASE_URL: 'nope' })).toThrowError(/DATABASE_URL/);
  });

  it('refuses the development JWT secret in production', () => {
    expect(() => parseEnv('auth', schema, { NODE_ENV: 'production' })).toThrowError(/JWT_SECRET: must be set/);
    const secret = 'x'.repeat(40);
    expect(parseEnv('auth', schema, { NODE_ENV: 'production', JWT_SECRET: secret, TRUSTED_PROXIES: 'none' }).JWT_SECRET).toBe(secret);
    expect(parseEnv('auth', schema, {}).JWT_SECRET).toBe(DEV_JWT_SECRET);
  });

  it('refuses the development JWT secret under any NODE_ENV but development and test', () => {
    // A schema whose NODE_ENV is free text, as a service widening the enum (staging, preview) would have.
    const open = z.object({ NODE_ENV: z.string(), JWT_SECRET: baseEnvSchema.shape.JWT_SECRET }).superRefine(requireProductionSettings);
    expect(() => parseEnv('x', open, { NODE_ENV: 'staging' })).toThrowError(/JWT_SECRET: must be set to a secret of your own when NODE_ENV is staging/);
    expect(parseEnv('x', open, { NODE_ENV: 'development' }).JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(parseEnv('x', open, { NODE_ENV: 'test' }).JWT_SECRET).toBe(DEV_JWT_SECRET);
  });

  it('leaves COOKIE_SECURE unset unless given, so production can default it on', () => {
    expect(parseEnv('auth', schema, {}).COOKIE_SECURE).toBeUndefined();
    expect(parseEnv('auth', schema, { COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(false);
  });

  it('refuses a short secret', () => {
    expect(() => parseEnv('x', z.object({ JWT_SECRET: baseEnvSchema.shape.JWT_SECRET }), { JWT_SECRET: 'short' })).toThrowError(
      /JWT_SECRET: must be at least 32 characters/,
    );
  });
});

describe('TRUSTED_PROXIES', () => {
  const schema = baseEnvSchema.superRefine(requireProductionSettings);
  const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters' };

  it('reads addresses, CIDRs and range names, and "none" as nobody', () => {
    expect(parseEnv('auth', schema, { TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1 ,fd00::/8,loopback' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8', 'loopback']);
    expect(parseEnv('auth', schema, { TRUSTED_PROXIES: 'none' }).TRUSTED_PROXIES).toEqual([]);
    expect(parseEnv('auth', schema, {}).TRUSTED_PROXIES).toBeUndefined();
  });

  it('names the entries that are not addresses', () => {
    expect(() => parseEnv('auth', schema, { TRUSTED_PROXIES: '10.0.0.0/33, gateway, 192.0.2.1' })).toThrowError(
      /^Invalid environment for auth: TRUSTED_PROXIES: expected "none" or addresses and CIDRs .*got "10.0.0.0\/33, gateway"$/,
    );
    expect(() => parseEnv('auth', schema, { TRUSTED_PROXIES: ',' })).toThrowError(/TRUSTED_PROXIES/);
  });

  it('must be given in production, and never as every address', () => {
    expect(() => parseEnv('auth', schema, production)).toThrowError(/TRUSTED_PROXIES: must be set in production/);
    expect(parseEnv('auth', schema, { ...production, TRUSTED_PROXIES: 'none' }).TRUSTED_PROXIES).toEqual([]);
    for (const everyone of ['0.0.0.0/0', '10.0.0.1, ::/0']) {
      expect(() => parseEnv('auth', schema, { ...production, TRUSTED_PROXIES: everyone })).toThrowError(/TRUSTED_PROXIES: must not trust every address in production/);
    }
    expect(parseEnv('auth', schema, { TRUSTED_PROXIES: '0.0.0.0/0' }).TRUSTED_PROXIES).toEqual(['0.0.0.0/0']);
  });
});
