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
      COOKIE_SECURE: false,
      REQUIRE_EMAIL_VERIFICATION: false,
      APP_URL: 'http://localhost:3000',
      MAIL_FROM: 'Sendwell <no-reply@sendwell.local>',
    });
    expect(env.SMTP_URL).toBeUndefined();
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
  });

  it('refuses the development JWT secret in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', JWT_SECRET: DEV_JWT_SECRET })).toThrow(/JWT_SECRET/);
  });
});
