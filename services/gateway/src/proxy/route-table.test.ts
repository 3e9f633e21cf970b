import { API_ROUTES, MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { matchRoute, pathOf, ROUTE_TABLE } from './route-table.js';

describe('matchRoute', () => {
  it('matches a trailing-star entry by prefix and an exact entry exactly', () => {
    expect(matchRoute('/api/auth')?.pattern).toBe('/api/auth*');
    expect(matchRoute('/api/auth/login')?.pattern).toBe('/api/auth*');
    expect(matchRoute('/api/users/x')?.pattern).toBe('/api/user*');
    expect(matchRoute('/api/email-verify')?.upstream).toBe('domains');
    expect(matchRoute('/api/email-verify/')).toBeUndefined();
    expect(matchRoute('/api/email-verify/batch')?.upstream).toBe('domains');
    expect(matchRoute('/api/email-verify/batch/x')).toBeUndefined();
    expect(matchRoute('/api/webhooks/stripe')?.upstream).toBe('billing');
    expect(matchRoute('/api/webhooks/other')).toBeUndefined();
  });

  it("sends a domain's mail-flow calls to the intake and the rest of the domain to the domains service", () => {
    expect(matchRoute('/api/domains/12/mail-flow')?.upstream).toBe('intake');
    expect(matchRoute('/api/domains/12/mail-flow/settings')?.upstream).toBe('intake');
    expect(matchRoute('/api/domains/12/report-addresses')?.upstream).toBe('intake');
    expect(matchRoute('/api/domains/12/report-addresses/x')?.upstream).toBe('domains');
    expect(matchRoute('/api/domains/12/tls-reports')?.upstream).toBe('intake');
    expect(matchRoute('/api/domains/12/sender-requirements')?.upstream).toBe('intake');
    expect(matchRoute('/api/domains/12/dmarc-reports/3/source')).toMatchObject({ upstream: 'intake', bodyLimit: 10 * 1024 * 1024 });
    expect(matchRoute('/api/domains//mail-flow')?.upstream).toBe('domains');
    expect(matchRoute('/api/domains/12/checks')?.upstream).toBe('domains');
    expect(matchRoute('/api/domains/12')?.upstream).toBe('domains');
    expect(matchRoute('/api/intake/tls-rpt/abc')?.upstream).toBe('intake');
    expect(matchRoute('/api/intake/other')).toBeUndefined();
  });

  it('sends the inbox tests to the intake, their event stream as one', () => {
    expect(matchRoute('/api/mail-tests')?.upstream).toBe('intake');
    expect(matchRoute('/api/mail-tests/7')?.upstream).toBe('intake');
    expect(matchRoute('/api/mail-tests/7')?.eventStream).toBeUndefined();
    expect(matchRoute('/api/mail-tests/7/events')).toMatchObject({ upstream: 'intake', eventStream: true });
    expect(matchRoute('/api/mail-tests/7/events/x')?.eventStream).toBeUndefined();
  });

  it('keeps /api/domains and /api/domain-checks apart', () => {
    expect(matchRoute('/api/domain-checks/1')?.pattern).toBe('/api/domain-checks*');
    expect(matchRoute('/api/domains/1')?.pattern).toBe('/api/domains*');
    expect(matchRoute('/api/domain')).toBeUndefined();
  });

  it('leaves the gateway-owned and unknown paths unrouted', () => {
    expect(matchRoute('/api/admin/server-stats')).toBeUndefined();
    expect(matchRoute('/api')).toBeUndefined();
    expect(matchRoute('/dashboard')).toBeUndefined();
  });

  it('sends every API_ROUTES call to the service that serves it, a report file with the larger body limit', () => {
    for (const route of API_ROUTES) {
      const entry = matchRoute(route.path.replace(/:\w+/g, '7'));
      expect({ call: `${route.method} ${route.path}`, upstream: entry?.upstream }).toEqual({ call: `${route.method} ${route.path}`, upstream: route.service });
      if (route.rawBody) expect(entry?.bodyLimit).toBe(MAX_REPORT_UPLOAD_BYTES);
    }
  });

  it('routes nothing to the scanner and every entry to a service', () => {
    expect(ROUTE_TABLE.some((e) => e.upstream === 'scanner')).toBe(false);
    expect(new Set(ROUTE_TABLE.map((e) => e.pattern)).size).toBe(ROUTE_TABLE.length);
  });
});

it('pathOf strips the query', () => {
  expect(pathOf('/api/x?a=1?b')).toBe('/api/x');
  expect(pathOf('/api/x')).toBe('/api/x');
});
