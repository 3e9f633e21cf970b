import { describe, expect, it } from 'vitest';
import { clientKey, credentialKey, parseRateLimit, rateLimitRules, sessionCredential } from './rate-limits.js';

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
    history: limit,
    scanDetail: limit,
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

  it('limits the reads of stored scans: the history and its timeline, one scan, and a domain’s score history', () => {
    expect(ruleFor('/api/domain-checks/history')).toBe('history');
    expect(ruleFor('/api/domains/12/history/days')).toBe('history');
    expect(ruleFor('/api/domains/12/history')).toBeUndefined();
    expect(ruleFor('/api/domains/12/history/days/more')).toBeUndefined();
    expect(ruleFor('/api/domain-checks/7d1c0b6e-3f4a-4c2b-9e8d-1a2b3c4d5e6f')).toBe('scan-detail');
    expect(ruleFor('/api/domain-checks/HISTORY')).toBe('scan-detail');
    expect(ruleFor('/api/domain-checks/anything')).toBe('scan-detail');
    expect(ruleFor('/api/domains/12/reputation/history')).toBe('scan-detail');
    // The scan status the web app polls every second while a scan runs, and the cheap reads around it.
    expect(ruleFor('/api/domains/12/scans/7d1c0b6e-3f4a-4c2b-9e8d-1a2b3c4d5e6f')).toBeUndefined();
    expect(ruleFor('/api/domains/12/last-scan')).toBeUndefined();
    expect(ruleFor('/api/domains/12/reputation')).toBeUndefined();
    expect(ruleFor('/api/domains/12/checks')).toBeUndefined();
    expect(ruleFor('/api/domain-checks')).toBeUndefined();
    expect(ruleFor('/api/domain-checks/history/more')).toBeUndefined();
    expect(ruleFor('/api/domain-checks/x/y')).toBeUndefined();
    expect(ruleFor('/api/billing/history')).toBeUndefined();
  });

  it('counts those two per session and every other rule per client address', () => {
    const byKey = Object.fromEntries(rules.map((r) => [r.name, r.key]));
    expect(byKey).toMatchObject({ history: 'credential', 'scan-detail': 'credential' });
    expect(rules.filter((r) => r.key === 'credential').map((r) => r.name)).toEqual(['history', 'scan-detail']);
  });
});

describe('sessionCredential', () => {
  const read = (headers: Record<string, string>, name = 'token') => sessionCredential(headers, name);

  it('reads the Bearer token first, as the services do, and then only the session cookie', () => {
    expect(read({ authorization: 'Bearer abc.def.ghi' })).toBe('abc.def.ghi');
    expect(read({ authorization: 'bearer abc', cookie: 'token=other' })).toBe('abc');
    // A malformed Bearer header authenticates nothing, and the services do not fall back to the cookie.
    expect(read({ authorization: 'Bearer  abc', cookie: 'token=other' })).toBeUndefined();
    expect(read({ authorization: 'Bearer a b' })).toBeUndefined();
    expect(read({ authorization: 'Basic dXNlcjpwYXNz', cookie: 'token=xyz' })).toBe('xyz');
    expect(read({ cookie: 'theme=dark; token=xyz; other=1' })).toBe('xyz');
    expect(read({ cookie: 'token=xyz' }, '__Host-token')).toBeUndefined();
    expect(read({ cookie: 'token=plain; __Host-token=secure' }, '__Host-token')).toBe('secure');
  });

  it('parses the cookie as @fastify/cookie does: first of the name, spaces and tabs trimmed, percent-decoded', () => {
    expect(read({ cookie: 'token=first; token=second' })).toBe('first');
    expect(read({ cookie: ' \ttoken \t= xyz\t ; a=1' })).toBe('xyz');
    expect(read({ cookie: 'token=%78yz' })).toBe('xyz');
    expect(read({ cookie: 'token=%zz' })).toBe('%zz');
    expect(read({ cookie: 'xtoken=1; tokenx=2; token' })).toBeUndefined();
    expect(read({ cookie: 'token=; token=xyz' })).toBeUndefined();
    expect(read({})).toBeUndefined();
  });
});

describe('credentialKey', () => {
  it('is a fixed-length hash, the same for the same credential and never containing it', () => {
    const credential = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2ln';
    const key = credentialKey(credential);
    expect(key).toMatch(/^cred:[\w-]{43}$/);
    expect(credentialKey(credential)).toBe(key);
    expect(credentialKey(`${credential}x`)).not.toBe(key);
    for (const part of credential.split('.')) expect(key).not.toContain(part);
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
