import { describe, expect, it } from 'vitest';
import { clientKey, parseRateLimit, rateLimitRules } from './rate-limits.js';

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
  const rules = rateLimitRules({
    login: limit,
    register: limit,
    forgotPassword: limit,
    resetPassword: limit,
    quickCheck: limit,
    emailVerify: limit,
    emailVerifyBatch: limit,
    reportGenerate: limit,
    integrationTest: limit,
    serverStats: limit,
  });
  const ruleFor = (path: string) => rules.find((r) => r.matches(path))?.name;

  it('applies to exactly the calls the architecture names, whatever the method', () => {
    expect(ruleFor('/api/auth/login')).toBe('login');
    expect(ruleFor('/api/auth/register')).toBe('register');
    expect(ruleFor('/api/auth/forgot-password')).toBe('forgot-password');
    expect(ruleFor('/api/auth/reset-password-with-token')).toBe('reset-password');
    expect(ruleFor('/api/sample-domains/example.com')).toBe('quick-check');
    expect(ruleFor('/api/email-verify')).toBe('email-verify');
    expect(ruleFor('/api/email-verify/batch')).toBe('email-verify-batch');
    expect(ruleFor('/api/reports/generate')).toBe('report-generate');
    expect(ruleFor('/api/integrations/slack/test')).toBe('integration-test');
    expect(ruleFor('/api/integrations/constant%20contact/test')).toBe('integration-test');
    expect(ruleFor('/api/integrations/webhooks/12/test')).toBe('integration-test');
    expect(ruleFor('/api/admin/server-stats')).toBe('server-stats');
    expect(ruleFor('/api/integrations/webhooks')).toBeUndefined();
    expect(ruleFor('/api/integrations/slack')).toBeUndefined();
    expect(ruleFor('/api/reports')).toBeUndefined();
    expect(ruleFor('/api/sample-domains')).toBeUndefined();
    expect(ruleFor('/api/auth/logout')).toBeUndefined();
    expect(ruleFor('/api/auth/me')).toBeUndefined();
  });
});

describe('clientKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['::1', '::/64'],
  ])('keys %s as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });

  it('keeps anything that is not an address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
  });
});
