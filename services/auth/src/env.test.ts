import { DEV_JWT_SECRET, EnvError } from '@sendwell/server-kit';
import { describe, expect, it } from 'vitest';
import { loadEnv, parseDuration } from './env.js';

describe('auth env', () => {
  it('has a development default for every setting', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      PORT: 3001,
      JWT_EXPIRES_IN: '7d',
      sessionTtlMs: 7 * 86_400_000,
      REQUIRE_EMAIL_VERIFICATION: false,
      APP_URL: 'http://localhost:3000',
      MAIL_FROM: 'Sendwell <no-reply@sendwell.local>',
      LOGIN_FAILURE_LIMIT: 5,
      LOGIN_FAILURE_WINDOW: 15 * 60_000,
      LOGIN_BACKOFF_MAX: 15 * 60_000,
    });
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.COOKIE_SECURE).toBeUndefined(); // sessionCookie() turns it on in production
    expect(env.MAIL_OUTBOX_DIR).toMatch(/\.outbox$/);
  });

  it('reads "false" as false and "true" as true', () => {
    expect(loadEnv({ COOKIE_SECURE: 'false', REQUIRE_EMAIL_VERIFICATION: 'true' })).toMatchObject({ COOKIE_SECURE: false, REQUIRE_EMAIL_VERIFICATION: true });
    expect(loadEnv({ COOKIE_SECURE: '1', REQUIRE_EMAIL_VERIFICATION: 'off' })).toMatchObject({ COOKIE_SECURE: true, REQUIRE_EMAIL_VERIFICATION: false });
  });

  it('parses token lifetimes and names a bad setting', () => {
    expect(parseDuration('12h')).toBe(43_200_000);
    expect(parseDuration('3600s')).toBe(3_600_000);
    expect(parseDuration('soon')).toBeNull();
    expect(loadEnv({ JWT_EXPIRES_IN: '30m', APP_URL: 'https://sendwell.example/' })).toMatchObject({ sessionTtlMs: 1_800_000, APP_URL: 'https://sendwell.example' });
    expect(() => loadEnv({ JWT_EXPIRES_IN: 'forever' })).toThrow(/JWT_EXPIRES_IN/);
    expect(() => loadEnv({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadEnv({ PORT: '70000' })).toThrow(EnvError);
    expect(loadEnv({ LOGIN_FAILURE_WINDOW: '1h', LOGIN_BACKOFF_MAX: '90s' })).toMatchObject({ LOGIN_FAILURE_WINDOW: 3_600_000, LOGIN_BACKOFF_MAX: 90_000 });
    expect(() => loadEnv({ LOGIN_BACKOFF_MAX: 'long' })).toThrow(/LOGIN_BACKOFF_MAX: must be a duration/);
    expect(() => loadEnv({ LOGIN_FAILURE_LIMIT: '0' })).toThrow(/LOGIN_FAILURE_LIMIT/);
  });

  it('refuses the development JWT secret in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', JWT_SECRET: DEV_JWT_SECRET, SMTP_URL: 'smtp://mail.example' })).toThrow(/JWT_SECRET/);
  });

  it('requires email verification in production unless told otherwise, and not elsewhere', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-forty-characters!', SMTP_URL: 'smtp://mail.example', TRUSTED_PROXIES: '10.0.0.0/8' };
    expect(loadEnv(production).REQUIRE_EMAIL_VERIFICATION).toBe(true);
    expect(loadEnv({ ...production, REQUIRE_EMAIL_VERIFICATION: 'false' }).REQUIRE_EMAIL_VERIFICATION).toBe(false);
    expect(loadEnv({ NODE_ENV: 'test' }).REQUIRE_EMAIL_VERIFICATION).toBe(false);
    expect(loadEnv({ REQUIRE_EMAIL_VERIFICATION: 'true' }).REQUIRE_EMAIL_VERIFICATION).toBe(true);
  });

  it('refuses the outbox mailer in production: SMTP_URL is required there', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-forty-characters!', TRUSTED_PROXIES: '10.0.0.0/8' };
    expect(() => loadEnv(production)).toThrow(/SMTP_URL: must be set in production/);
    expect(loadEnv({ ...production, SMTP_URL: 'smtps://mail.example:465' }).SMTP_URL).toBe('smtps://mail.example:465');
    expect(loadEnv({ NODE_ENV: 'development' }).SMTP_URL).toBeUndefined();
  });
});
