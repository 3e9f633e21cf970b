import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, sample, startEchoServer, startGateway, type Echo, type EchoServer, type Gateway } from './helpers.js';

let auth: EchoServer;
let gateway: Gateway;
let origin: string;

beforeAll(async () => {
  auth = await startEchoServer('auth');
  gateway = await startGateway({ AUTH_URL: auth.url, RATE_LIMIT_ENABLED: 'false' });
  origin = await gateway.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
});

const HEAD = 'host: gateway\r\nconnection: close\r\n';
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('requests the HTTP parser or the router refuse', () => {
  const cases: [name: string, request: string | Buffer, status: number][] = [
    ['two Content-Length headers', `POST /api/auth/register HTTP/1.1\r\n${HEAD}content-length: 2\r\ncontent-length: 2\r\n\r\n{}`, 400],
    ['Content-Length with Transfer-Encoding', `POST /api/auth/register HTTP/1.1\r\n${HEAD}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, 400],
    ['a Transfer-Encoding other than chunked', `POST /api/auth/register HTTP/1.1\r\n${HEAD}transfer-encoding: gzip\r\n\r\n{}`, 400],
    ['a control character in a header value', bytes(`GET /api/auth/me HTTP/1.1\r\n${HEAD}x-note: a`, [0x01], 'b\r\n\r\n'), 400],
    ['DEL in a header value', bytes(`GET /api/auth/me HTTP/1.1\r\n${HEAD}x-note: a`, [0x7f], '\r\n\r\n'), 400],
    ['a 20 KiB header', `GET /api/auth/me HTTP/1.1\r\n${HEAD}x-note: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['3,000 headers', `GET /api/auth/me HTTP/1.1\r\n${HEAD}${Array.from({ length: 3000 }, (_, i) => `x-${i}: 1\r\n`).join('')}\r\n`, 431],
    ['an absolute-form target', `GET http://gateway/api/auth/me HTTP/1.1\r\n${HEAD}\r\n`, 400],
    ['an absolute-form target naming another host', `GET http://elsewhere.example/api/auth/me HTTP/1.1\r\n${HEAD}\r\n`, 400],
    ['OPTIONS *', `OPTIONS * HTTP/1.1\r\n${HEAD}\r\n`, 404],
    ['a method no route has (PROPFIND)', `PROPFIND /api/auth/me HTTP/1.1\r\n${HEAD}\r\n`, 404],
    ['TRACE', `TRACE /api/auth/me HTTP/1.1\r\n${HEAD}\r\n`, 404],
    ['a method the parser does not know', `FOO /api/auth/me HTTP/1.1\r\n${HEAD}\r\n`, 400],
    ['a space in the target', `GET /api/auth/m e HTTP/1.1\r\n${HEAD}\r\n`, 400],
    ['raw UTF-8 in the target', bytes('GET /api/auth/m', [0xc3, 0xa9], ` HTTP/1.1\r\n${HEAD}\r\n`), 400],
  ];

  it.each(cases)('%s', async (_name, request, status) => {
    const answer = await rawExchange(origin, request);
    expect(answer.status).toBe(status);
  });

  it('answers CONNECT with a 405 ApiError instead of dropping the connection', async () => {
    const answer = await rawExchange(origin, `CONNECT elsewhere.example:443 HTTP/1.1\r\nhost: elsewhere.example:443\r\n\r\n`);
    expect(answer.status).toBe(405);
    expect(answer.head).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS$/m);
    expect(JSON.parse(answer.body)).toEqual({ code: 'VALIDATION_FAILED', message: 'CONNECT is not supported.' });
  });
});

describe('odd but valid headers', () => {
  it('forwards a header value with obs-text bytes, and duplicated Cookie and Authorization as Node reads them', async () => {
    const answer = await rawExchange(
      origin,
      bytes(`GET /api/auth/me HTTP/1.1\r\n${HEAD}x-note: caf`, [0xe9], '\r\ncookie: a=1\r\ncookie: b=2\r\nauthorization: Bearer a\r\nauthorization: Bearer b\r\n\r\n'),
    );
    expect(answer.status).toBe(200);
    const echo = JSON.parse(answer.body) as Echo;
    expect(echo.headers['x-note']).toBe('caf\u00e9');
    expect(echo.headers.cookie).toBe('a=1; b=2');
    // Node joins repeated cookies and keeps the first of a header that cannot repeat.
    expect(echo.headers.authorization).toBe('Bearer a');
  });
});

it('counts none of the above as a failure of the service, and answers none with a 5xx', async () => {
  const text = (await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body;
  expect(sample(text, 'gateway_upstream_failures_total', { upstream: 'auth' })).toBeUndefined();
  expect(text).not.toMatch(/^gateway_http_requests_total\{[^}]*status="5\d\d"/m);
});
