import { describe, expect, it } from 'vitest';
import { normalizeRequestTarget } from './request-target.js';

describe('normalizeRequestTarget', () => {
  it.each([
    ['/api/auth/login', '/api/auth/login', ''],
    ['/api/auth/%6Cogin', '/api/auth/login', ''],
    ['/api/auth/%6cogin', '/api/auth/login', ''],
    ['/%61pi/auth/login?next=%2F', '/api/auth/login', '?next=%2F'],
    ['/api/auth//login', '/api/auth/login', ''],
    ['/api/auth/login/', '/api/auth/login', ''],
    ['/api/auth/login#fragment', '/api/auth/login', ''],
    ['/api/auth/login#x?y=1', '/api/auth/login', ''],
    ['/api/auth/login?a=1#x', '/api/auth/login', '?a=1'],
    ['/api/sample-domains/ex%61mple.com', '/api/sample-domains/example.com', ''],
    ['/api/sample-domains/a%2db%2Ec%5f%7E', '/api/sample-domains/a-b.c_~', ''],
    // Reserved and non-ASCII escapes keep their meaning: left encoded, in upper case.
    ['/api/reports/a%20b%3a%c3%a9', '/api/reports/a%20b%3A%C3%A9', ''],
    ['/api/domains/...', '/api/domains/...', ''],
    ['/', '/', ''],
  ])('reads %s as %s', (url, path, search) => {
    expect(normalizeRequestTarget(url)).toEqual({ ok: true, path, search });
  });

  it.each([
    ['/api/auth/../auth/login', '"." or ".."'],
    ['/api/./auth/login', '"." or ".."'],
    ['/api/auth/%2e%2e/auth/login', '"." or ".."'],
    ['/api/auth/%2E/login', '"." or ".."'],
    ['/api/auth/.%2E', '"." or ".."'],
    ['/api/auth%2Flogin', 'encoded "/"'],
    ['/api/auth%2flogin', 'encoded "/"'],
    ['/api/auth%5Clogin', 'encoded "/" or "\\"'],
    ['/api/auth\\login', '"\\"'],
    ['/api/auth/login%00', 'NUL'],
    ['/api/auth/%6', 'malformed'],
    ['/api/auth/%zzogin', 'malformed'],
    ['/api/auth/login%', 'malformed'],
    ['api/auth/login', 'start with "/"'],
  ])('refuses %s', (url, reason) => {
    const target = normalizeRequestTarget(url);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.message).toContain(reason);
  });
});
