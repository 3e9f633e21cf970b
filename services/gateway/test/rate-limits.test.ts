import { deleteKeys } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, rawRequest, startEchoServer, startGateway, type Echo, type EchoServer, type Gateway } from './helpers.js';

let auth: EchoServer;
let domains: EchoServer;
let reports: EchoServer;
let gateway: Gateway;

beforeAll(async () => {
  auth = await startEchoServer('auth');
  domains = await startEchoServer('domains');
  reports = await startEchoServer('reports');
  gateway = await startGateway({
    AUTH_URL: auth.url,
    DOMAINS_URL: domains.url,
    REPORTS_URL: reports.url,
    RATE_LIMIT_LOGIN: '3/60s',
    RATE_LIMIT_REGISTER: '2/1h',
    RATE_LIMIT_QUICK_CHECK: '2/1m',
    RATE_LIMIT_EMAIL_VERIFY: '1/30s',
    RATE_LIMIT_EMAIL_VERIFY_BATCH: '2/1m',
    RATE_LIMIT_REPORT_GENERATE: '3/1m',
    RATE_LIMIT_INTEGRATION_TEST: '2/1m',
    RATE_LIMIT_HISTORY: '3/1m',
    RATE_LIMIT_SCAN_DETAIL: '4/1m',
  });
});

afterAll(async () => {
  await deleteKeys(gateway.deps.env.RATE_LIMIT_PREFIX);
  await gateway?.close();
  await auth?.close();
  await domains?.close();
  await reports?.close();
});

const login = (ip: string) => gateway.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email: 'a@example.com', password: 'x' } });

describe('rate limits', () => {
  it('answers 429 with Retry-After after the configured number of logins, per address', async () => {
    for (let i = 0; i < 3; i++) expect((await login('198.51.100.1')).statusCode).toBe(200);
    const limited = await login('198.51.100.1');
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many login attempts. Please try again later.',
      retryAfterSeconds: retryAfter,
      requestId: limited.headers['x-request-id'],
    });
    // Another client is not affected.
    expect((await login('198.51.100.2')).statusCode).toBe(200);
  });

  it('counts each rule separately and leaves other calls alone', async () => {
    const ip = '198.51.100.3';
    for (let i = 0; i < 3; i++) await login(ip);
    expect((await login(ip)).statusCode).toBe(429);
    const register = () => gateway.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip });
    expect((await register()).statusCode).toBe(200);
    expect((await register()).statusCode).toBe(200);
    const third = await register();
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(60 * 59);
    // GET on the login path and other auth calls have no limit.
    for (let i = 0; i < 5; i++) expect((await gateway.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: ip })).statusCode).toBe(200);
  });

  it('limits quick checks and email verification', async () => {
    const ip = '198.51.100.4';
    const check = (domain: string) => gateway.app.inject({ method: 'GET', url: `/api/sample-domains/${domain}`, remoteAddress: ip });
    expect((await check('a.example')).statusCode).toBe(200);
    expect((await check('b.example')).statusCode).toBe(200);
    const limited = await check('c.example');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many quick checks. Please wait a moment before checking another domain.');

    const verify = () => gateway.app.inject({ method: 'POST', url: '/api/email-verify', remoteAddress: ip, payload: { email: 'x@example.com' } });
    expect((await verify()).statusCode).toBe(200);
    expect((await verify()).statusCode).toBe(429);
  });

  it('limits the expensive calls: report generation, bulk verification and the test messages', async () => {
    const post = (url: string, ip: string) => gateway.app.inject({ method: 'POST', url, remoteAddress: ip, payload: {} });
    /** `allowed` calls pass, the next is refused with Retry-After within the window and the rule's message. */
    const expectLimit = async (urls: string[], ip: string, message: string) => {
      for (const url of urls.slice(0, -1)) expect((await post(url, ip)).statusCode, url).toBe(200);
      const limited = await post(urls.at(-1)!, ip);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message });
    };
    await expectLimit(Array(4).fill('/api/reports/generate'), '198.51.100.20', 'Too many report requests. Please try again later.');
    await expectLimit(Array(3).fill('/api/email-verify/batch'), '198.51.100.21', 'Too many bulk email verifications. Please try again later.');
    // Both kinds of test message share one counter: a client cannot alternate between them.
    await expectLimit(
      ['/api/integrations/slack/test', '/api/integrations/webhooks/7/test', '/api/integrations/discord/test'],
      '198.51.100.22',
      'Too many test messages. Please wait a moment before sending another.',
    );
    // The single verification keeps its own counter, and saving an integration is not a test.
    expect((await post('/api/email-verify', '198.51.100.21')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await post('/api/integrations', '198.51.100.22')).statusCode).toBe(200);
  });

  it('reads the client address from X-Forwarded-For only when told to trust the proxy', async () => {
    const behindLb = await startGateway({ AUTH_URL: auth.url, RATE_LIMIT_LOGIN: '1/60s', TRUSTED_PROXIES: '10.0.0.0/8' });
    try {
      const viaLb = (client: string) =>
        behindLb.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': client } });
      expect((await viaLb('192.0.2.10')).statusCode).toBe(200);
      expect((await viaLb('192.0.2.10')).statusCode).toBe(429);
      const other = await viaLb('192.0.2.11');
      expect(other.statusCode).toBe(200);
      expect(other.json().headers['x-forwarded-for']).toBe('192.0.2.11, 10.0.0.5');
    } finally {
      await deleteKeys(behindLb.deps.env.RATE_LIMIT_PREFIX);
      await behindLb.close();
    }
    // At the edge (default), a forged header does not buy a fresh counter.
    const forged = (client: string) =>
      gateway.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: '198.51.100.5', headers: { 'x-forwarded-for': client } });
    expect((await forged('192.0.2.1')).statusCode).toBe(200);
    expect((await forged('192.0.2.2')).statusCode).toBe(200);
    expect((await forged('192.0.2.3')).statusCode).toBe(429);
  });

  it('limits every method that reaches a handler: HEAD with GET, and any method on a POST call', async () => {
    const ip = '198.51.100.10';
    const check = (method: 'GET' | 'HEAD') => gateway.app.inject({ method, url: '/api/sample-domains/example.com', remoteAddress: ip });
    expect((await check('HEAD')).statusCode).toBe(200);
    expect((await check('HEAD')).statusCode).toBe(200);
    expect((await check('GET')).statusCode).toBe(429);
    expect((await check('HEAD')).statusCode).toBe(429);

    const other = '198.51.100.11';
    const verify = (method: 'POST' | 'PUT') => gateway.app.inject({ method, url: '/api/email-verify', remoteAddress: other, payload: {} });
    expect((await verify('PUT')).statusCode).toBe(200);
    expect((await verify('POST')).statusCode).toBe(429);
  });

  it('keys IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', async () => {
    const loginFrom = (ip: string) => gateway.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip });
    for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:ffff:1:2:3']) expect((await loginFrom(ip)).statusCode).toBe(200);
    expect((await loginFrom('2001:db8:5:6:abcd::9')).statusCode).toBe(429);
    expect((await loginFrom('2001:db8:5:7::1')).statusCode).toBe(200);

    for (let i = 0; i < 3; i++) expect((await loginFrom('198.51.100.12')).statusCode).toBe(200);
    expect((await loginFrom('::ffff:198.51.100.12')).statusCode).toBe(429);
  });

  it('lets requests through when Redis is down', async () => {
    const noRedis = await startGateway({ AUTH_URL: auth.url, RATE_LIMIT_LOGIN: '1/60s', REDIS_URL: (await closedPortUrl()).replace('http:', 'redis:') });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await noRedis.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '198.51.100.6' });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await noRedis.close();
    }
  });
});

describe('rate limits on the reads of stored scans, per session', () => {
  const SCAN = '7d1c0b6e-3f4a-4c2b-9e8d-1a2b3c4d5e6f';
  const get = (url: string, ip: string, headers: Record<string, string> = {}) => gateway.app.inject({ method: 'GET', url, remoteAddress: ip, headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const cookie = (token: string) => ({ cookie: `theme=dark; token=${token}` });
  /** A token of this test's own: unique, so no other test's counter is touched. */
  const token = (name: string) => `eyJhbGciOiJIUzI1NiJ9.${name}-${Math.random().toString(36).slice(2)}.c2lnbmF0dXJl`;

  const expectLimited = (answer: Awaited<ReturnType<typeof get>>, message: string) => {
    expect(answer.statusCode).toBe(429);
    const retryAfter = Number(answer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(answer.json()).toEqual({ code: 'RATE_LIMITED', message, retryAfterSeconds: retryAfter, requestId: answer.headers['x-request-id'] });
  };

  it('limits the history call past the configured number within the window, and forwards the ones under it', async () => {
    const session = bearer(token('history'));
    for (let i = 0; i < 3; i++) {
      const answer = await get('/api/domain-checks/history', '198.51.100.30', session);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ upstream: 'domains', path: '/api/domain-checks/history' });
    }
    expectLimited(await get('/api/domain-checks/history', '198.51.100.30', session), 'Too many history requests. Please try again in a moment.');
    // Every spelling of the path and every method count on the same counter.
    expect((await get('/api/domain-checks/%68istory/', '198.51.100.30', session)).statusCode).toBe(429);
    expect((await gateway.app.inject({ method: 'HEAD', url: '/api/domain-checks/history', remoteAddress: '198.51.100.30', headers: session })).statusCode).toBe(429);
  });

  it('limits scan details and the score history on one counter, and leaves the polled scan status alone', async () => {
    const session = cookie(token('detail'));
    const ip = '198.51.100.31';
    expect((await get(`/api/domain-checks/${SCAN}`, ip, session)).statusCode).toBe(200);
    expect((await get('/api/domain-checks/00000000-0000-4000-8000-000000000000', ip, session)).statusCode).toBe(200);
    expect((await get('/api/domains/12/reputation/history', ip, session)).statusCode).toBe(200);
    expect((await get(`/api/domain-checks/${SCAN}`, ip, session)).statusCode).toBe(200);
    expectLimited(await get(`/api/domain-checks/${SCAN}`, ip, session), 'Too many scan detail requests. Please try again in a moment.');
    expect((await get('/api/domains/12/reputation/history', ip, session)).statusCode).toBe(429);

    // Its own counter, not the history's, and the calls around it have no limit at all:
    // the web app polls a running scan's status every second.
    expect((await get('/api/domain-checks/history', ip, session)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      for (const url of [`/api/domains/12/scans/${SCAN}`, '/api/domains/12/last-scan', '/api/domains/12/reputation', '/api/domains/12/checks', '/api/domains']) {
        expect((await get(url, ip, session)).statusCode, url).toBe(200);
      }
    }
  });

  it('gives two sessions from one address (an office NAT) counters of their own', async () => {
    const ip = '198.51.100.32';
    const [alice, bob] = [token('alice'), token('bob')];
    for (let i = 0; i < 3; i++) expect((await get('/api/domain-checks/history', ip, bearer(alice))).statusCode).toBe(200);
    expect((await get('/api/domain-checks/history', ip, bearer(alice))).statusCode).toBe(429);
    // The same session as a cookie is the same counter.
    expect((await get('/api/domain-checks/history', ip, cookie(alice))).statusCode).toBe(429);
    // Another session behind the same address is not affected, by Bearer or by cookie.
    for (let i = 0; i < 3; i++) expect((await get('/api/domain-checks/history', ip, i % 2 ? cookie(bob) : bearer(bob))).statusCode).toBe(200);
    expect((await get('/api/domain-checks/history', ip, cookie(bob))).statusCode).toBe(429);
    // Neither is a call without a session, which counts against the address.
    for (let i = 0; i < 3; i++) expect((await get('/api/domain-checks/history', ip)).statusCode).toBe(200);
    expect((await get('/api/domain-checks/history', ip)).statusCode).toBe(429);
    // And a session keeps its counter from another address.
    expect((await get('/api/domain-checks/history', '203.0.113.9', bearer(alice))).statusCode).toBe(429);
  });

  it('does not buy fresh counters with other cookies or another spelling of the same token', async () => {
    const ip = '198.51.100.33';
    const session = token('spelling');
    const spelled = session.replace('e', '%65');
    const variants = [`token=${session}`, `a=1; token=${session}`, ` token = ${session} ; b=2`, `token=${spelled}`, `token=${session}; token=other`];
    for (const [i, variant] of variants.entries()) {
      expect((await get('/api/domain-checks/history', ip, { cookie: variant })).statusCode, variant).toBe(i < 3 ? 200 : 429);
    }
  });

  it('keeps only a hash of the credential in Redis, never the credential itself', async () => {
    const session = token('stored');
    const cookieSession = token('stored-cookie');
    await get('/api/domain-checks/history', '198.51.100.34', bearer(session));
    await get(`/api/domain-checks/${SCAN}`, '198.51.100.34', cookie(cookieSession));
    await get('/api/domain-checks/history', '198.51.100.35');
    const keys = await gateway.deps.redis.keys(`${gateway.deps.env.RATE_LIMIT_PREFIX}:*`);
    const prefix = gateway.deps.env.RATE_LIMIT_PREFIX;
    const own = keys.filter((key) => key.startsWith(`${prefix}:history:cred:`) || key.startsWith(`${prefix}:scan-detail:cred:`));
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const key of own) expect(key).toMatch(/:(?:history|scan-detail):cred:[\w-]{43}$/);
    for (const secret of [session, cookieSession, ...session.split('.'), ...cookieSession.split('.')]) {
      expect(keys.filter((key) => key.includes(secret))).toEqual([]);
    }
    // Without a session the address is the key, as for the other rules.
    expect(keys).toContain(`${prefix}:history:198.51.100.35`);
  });

  it('keeps the other rules on the client address, whatever session a call carries', async () => {
    const ip = '198.51.100.36';
    const verify = (session: string) => gateway.app.inject({ method: 'POST', url: '/api/email-verify', remoteAddress: ip, headers: bearer(session), payload: {} });
    expect((await verify(token('one'))).statusCode).toBe(200);
    expect((await verify(token('two'))).statusCode).toBe(429);
  });
});

describe('paths, as a socket sends them', () => {
  let listening: Gateway;
  let origin: string;

  beforeAll(async () => {
    listening = await startGateway({ AUTH_URL: auth.url, DOMAINS_URL: domains.url, RATE_LIMIT_LOGIN: '3/60s' });
    origin = await listening.app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await deleteKeys(listening.deps.env.RATE_LIMIT_PREFIX);
    await listening?.close();
  });

  it('limits every spelling of a limited path the same, and forwards the path it limited', async () => {
    const spellings = ['/api/auth/%6Cogin', '/api/auth//login', '/api/auth/login/', '/%61pi/auth/login#x', '/api/auth/log%69n?next=%2F'];
    const answers = [];
    for (const target of spellings) answers.push(await rawRequest(origin, 'POST', target));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.slice(0, 3).map((a) => (JSON.parse(a.body) as Echo).url)).toEqual(['/api/auth/login', '/api/auth/login', '/api/auth/login']);
    expect(JSON.parse(answers[3]!.body)).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many login attempts. Please try again later.' });
    // The query string goes through as sent.
    const echo = JSON.parse((await rawRequest(origin, 'GET', '/api/auth/m%65?next=%2F#top')).body) as Echo;
    expect(echo.url).toBe('/api/auth/me?next=%2F');
  });

  it('refuses dot segments, encoded slashes, NUL and malformed escapes with a 400 that says why', async () => {
    const dots = 'The request path must not contain "." or ".." segments.';
    const slash = 'The request path must not contain an encoded "/" or "\\".';
    const cases: [target: string, message: string | undefined][] = [
      ['/api/auth/%2e%2e/auth/login', dots],
      ['/api/domains/../auth/login', dots],
      ['/api/./auth/login', dots],
      ['/api/auth%2Flogin', slash],
      ['/api/auth/login%5C', slash],
      ['/api/auth/login%00', 'The request path must not contain NUL.'],
      // The gateway's own router cannot decode this one; its answer is the same ApiError 400.
      ['/api/auth/%zzogin', undefined],
    ];
    for (const [target, message] of cases) {
      const answer = await rawRequest(origin, 'POST', target);
      expect(answer.status, target).toBe(400);
      const body = JSON.parse(answer.body) as { code: string; message: string };
      expect(body.code, target).toBe('VALIDATION_FAILED');
      if (message) expect(body.message, target).toBe(message);
    }
  });
});
