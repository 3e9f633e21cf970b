import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, rawSocket, readAnswer, sample, startEchoServer, startGateway, type Echo, type EchoServer, type Gateway } from './helpers.js';

let auth: EchoServer;
let gateway: Gateway;
let origin: string;
let host: string;

beforeAll(async () => {
  auth = await startEchoServer('auth');
  gateway = await startGateway({ AUTH_URL: auth.url, RATE_LIMIT_ENABLED: 'false' });
  origin = await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  host = new URL(origin).host;
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
});

async function upstreamFailures(): Promise<number | undefined> {
  const text = (await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body;
  return sample(text, 'gateway_upstream_failures_total', { upstream: 'auth' });
}

const body = '{"email":"a@example.com"}';

describe('Expect: 100-continue', () => {
  it('is answered by the gateway before the body is sent, and never forwarded', async () => {
    const socket = rawSocket(origin);
    socket.write(
      `POST /api/auth/register HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
        `content-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n`,
    );
    // The body waits for the interim answer, as a client honouring the expectation does.
    const [first] = (await once(socket, 'data')) as [Buffer];
    expect(first.toString('latin1')).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    socket.write(body);
    const answer = await readAnswer(socket);
    expect(answer.status).toBe(200);
    const echo = JSON.parse(answer.body) as Echo;
    expect(Buffer.from(echo.body!, 'base64').toString()).toBe(body);
    expect(echo.headers.expect).toBeUndefined();
    expect(await upstreamFailures()).toBeUndefined();
  });

  it('is dropped, not forwarded, in an HTTP/1.0 request and through inject()', async () => {
    const old = await rawExchange(origin, `POST /api/auth/register HTTP/1.0\r\nhost: ${host}\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n${body}`);
    expect(old.status).toBe(200);
    expect((JSON.parse(old.body) as Echo).headers.expect).toBeUndefined();
    const injected = await gateway.app.inject({ method: 'POST', url: '/api/auth/register', headers: { expect: '100-continue' }, payload: body });
    expect(injected.statusCode).toBe(200);
    expect(injected.json<Echo>().headers.expect).toBeUndefined();
    expect(await upstreamFailures()).toBeUndefined();
  });
});

describe('another expectation', () => {
  it('answers 417 as an ApiError with the request id, and never reaches the service', async () => {
    const answer = await rawExchange(
      origin,
      `POST /api/auth/register HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\ncontent-length: ${body.length}\r\nexpect: 200-ok\r\nx-request-id: expect-417\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(417);
    expect(JSON.parse(answer.body)).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The expectation in the "Expect" header is not supported; only "100-continue" is.',
      requestId: 'expect-417',
    });
    const injected = await gateway.app.inject({ method: 'GET', url: '/api/auth/me', headers: { expect: 'something-else' } });
    expect(injected.statusCode).toBe(417);
    expect(await upstreamFailures()).toBeUndefined();
    const text = (await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'gateway_http_requests_total', { route: '/api/auth*', method: 'POST', status: '417' })).toBe(1);
  });
});
