import { describe, expect, it } from 'vitest';
import { parseRateLimit, rateLimitRules } from './rate-limits.js';

describe('parseRateLimit', () => {
  it.each([
    ['10/60s', { max: 10, windowMs: 60_000 }],
    ['10/60', { max: 10, windowMs: 60_000 }],
    ['5/1h', { max: 5, windowMs: 3_600_000 }],
    [' 100 / 15m ', { max: 100, windowMs: 900_000 }],
    ['3/500ms', { max: 3, windowMs: 500 }],
    ['1/1d', { max: 1, windowMs: 86_400_000 }],
  ])('reads %s', (text, expected) => {
    expect(parseRateLimit(text)).toEqual(expected);
  });

  it.each(['', '10', '10/', '/60s', '0/60s', '10/0s', '10/60x', 'ten/60s', '-1/60s'])('refuses %j', (text) => {
    expect(parseRateLimit(text)).toBeNull();
  });
});

describe('rateLimitRules', () => {
  const limit = { max: 1, windowMs: 1000 };
  const rules = rateLimitRules({ login: limit, register: limit, forgotPassword: limit, resetPassword: limit, quickCheck: limit, emailVerify: limit });
  const ruleFor = (method: string, path: string) => rules.find((r) => r.method === method && r.matches(path))?.name;

  it('applies to exactly the calls the architecture names', () => {
    expect(ruleFor('POST', '/api/auth/login')).toBe('login');
    expect(ruleFor('POST', '/api/auth/register')).toBe('register');
    expect(ruleFor('POST', '/api/auth/forgot-password')).toBe('forgot-password');
    expect(ruleFor('POST', '/api/auth/reset-password-with-token')).toBe('reset-password');
    expect(ruleFor('GET', '/api/sample-domains/example.com')).toBe('quick-check');
    expect(ruleFor('POST', '/api/email-verify')).toBe('email-verify');
    expect(ruleFor('GET', '/api/auth/login')).toBeUndefined();
    expect(ruleFor('GET', '/api/sample-domains/')).toBeUndefined();
    expect(ruleFor('POST', '/api/auth/logout')).toBeUndefined();
  });
});
