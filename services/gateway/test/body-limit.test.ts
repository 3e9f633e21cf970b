import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, createLogger, type App } from '@sendwell/server-kit';
import { Client, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSocket, readAnswer, sample, startGateway, type Gateway, type RawAnswer } from './helpers.js';

const LIMIT = 1_048_576;
const TOO_LARGE = { code: 'PAYLOAD_TOO_LARGE', message: `The request body is too large: the limit is ${LIMIT} bytes.` };

/**
 * A service as the kit builds them (its own 1 MiB limit: 413 and a closed connection past it),
 * counting the uploads it received whole. `/api/reports/locked` answers 401 before reading a byte.
 */
async function startService(): Promise<{ app: App; url: string; received: number[] }> {
  const received: number[] = [];
  const app = createApp({ logger: createLogger('reports', 'silent') });
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/api/reports/locked') return reply.code(401).send({ code: 'UNAUTHORIZED', message: 'Sign in first.' });
  });
  app.post('/api/reports/upload', async (request) => {
    received.push((request.body as Buffer).length);
    return { bytes: (request.body as Buffer).length };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, received };
}

let service: Awaited<ReturnType<typeof startService>>;
let gateway: Gateway;
let client: Client;
let origin: string;

beforeAll(async () => {
  service = await startService();
  gateway = await startGateway({ REPORTS_URL: service.url });
  origin = await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  client = new Client(origin);
});

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await service?.app.close();
});

const upload = (body: Buffer | Readable, path = '/api/reports/upload'): Promise<Dispatcher.ResponseData> =>
  client.request({ method: 'POST', path, headers: { 'content-type': 'application/octet-stream' }, body });

/** A chunked body (no Content-Length) of `total` bytes, `pauseMs` between chunks. */
function chunked(total: number, pauseMs = 0, chunk = 64 * 1024): Readable {
  return Readable.from(
    (async function* () {
      for (let sent = 0; sent < total; sent += chunk) {
        if (pauseMs && sent) await sleep(pauseMs);
        yield Buffer.alloc(Math.min(chunk, total - sent), 0x61);
      }
    })(),
  );
}

/**
 * A POST of an endless body over a plain socket, written as fast as the gateway reads it, until a
 * write fails or 64 MiB have gone: the answer, the bytes the socket accepted and the write error.
 */
async function sendUntilClosed(framing: string, frame: (chunk: Buffer) => Buffer): Promise<{ answer: RawAnswer; bytes: number; error: string | null }> {
  const socket = rawSocket(origin);
  const answer = readAnswer(socket);
  const writeAsync = (data: Buffer | string) => new Promise<void>((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve())));
  let bytes = 0;
  let error: string | null = null;
  try {
    await writeAsync(`POST /api/reports/upload HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/octet-stream\r\n${framing}\r\n\r\n`);
    const chunk = frame(Buffer.alloc(256 * 1024, 0x61));
    while (bytes < 64 * 1024 ** 2) {
      await writeAsync(chunk);
      bytes += chunk.length;
    }
    socket.end(); // the server kept reading all of it: let readAnswer finish
  } catch (err) {
    error = (err as NodeJS.ErrnoException).code ?? String(err);
  }
  return { answer: await answer, bytes, error };
}

async function metric(name: string, labels: Record<string, string>): Promise<number | undefined> {
  return sample((await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body, name, labels);
}

describe('the body limit', () => {
  it('answers 413 from a declared length over the limit, every time, before the service sees a byte', async () => {
    // The service would answer 413 and close while the gateway was still sending: EPIPE, a 502 about half the time.
    const big = Buffer.alloc(LIMIT + 512 * 1024, 0x61);
    for (let i = 0; i < 8; i++) {
      const res = await upload(big);
      expect(res.statusCode).toBe(413);
      expect(await res.body.json()).toEqual({ ...TOO_LARGE, requestId: res.headers['x-request-id'] });
    }
    expect(service.received).toEqual([]);
    // Each 413 closed its connection (see below); the client's next request goes on a new one.
    const small = await upload(Buffer.from('ok'));
    expect(await small.body.json()).toEqual({ bytes: 2 });
  });

  it('counts a chunked body and answers 413 once it passes the limit', async () => {
    service.received.length = 0;
    const res = await upload(chunked(LIMIT + 256 * 1024));
    expect(res.statusCode).toBe(413);
    expect(await res.body.json()).toMatchObject(TOO_LARGE);
    expect(service.received).toEqual([]);
  });

  it('forwards a chunked body of exactly the limit whole', async () => {
    service.received.length = 0;
    const res = await upload(chunked(LIMIT));
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ bytes: LIMIT });
  });

  it('passes on an answer the service gives before reading the body', async () => {
    const res = await upload(Buffer.alloc(900 * 1024, 0x61), '/api/reports/locked');
    expect(res.statusCode).toBe(401);
    expect(await res.body.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Sign in first.' });
  });

  it('passes on the service’s early answer and stops cleanly when the body then passes the limit', async () => {
    // Slow enough that the 401 arrives long before the limit is reached.
    const res = await upload(chunked(LIMIT + 256 * 1024, 15), '/api/reports/locked');
    expect(res.statusCode).toBe(401);
    expect(await res.body.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    // The gateway read and dropped the rest: the connection serves the next request.
    const next = await upload(Buffer.from('ok'));
    expect(await next.body.json()).toEqual({ bytes: 2 });
  });

  it('answers 413 to a declared 4 GiB with Connection: close and stops reading: the rest is never drained', async () => {
    const sent = await sendUntilClosed(`content-length: ${4 * 1024 ** 3}`, (chunk) => chunk);
    expect(sent.answer.status).toBe(413);
    expect(sent.answer.head).toMatch(/^connection: close$/im);
    expect(JSON.parse(sent.answer.body)).toMatchObject(TOO_LARGE);
    // Whatever the kernel's socket buffers took, never the body: the writes failed soon after.
    expect(sent.error).toMatch(/EPIPE|ECONNRESET/);
    expect(sent.bytes).toBeLessThan(16 * 1024 ** 2);
  });

  it('answers 413 to a chunked body over the limit with Connection: close and stops reading', async () => {
    const sent = await sendUntilClosed('transfer-encoding: chunked', (chunk) => Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
    expect(sent.answer.status).toBe(413);
    expect(sent.answer.head).toMatch(/^connection: close$/im);
    expect(sent.error).toMatch(/EPIPE|ECONNRESET/);
    expect(sent.bytes).toBeLessThan(LIMIT + 16 * 1024 ** 2);
  });

  it('never counts any of the above as an upstream failure', async () => {
    expect(await metric('gateway_upstream_failures_total', { upstream: 'reports' })).toBeUndefined();
  });

  it('treats a client leaving mid-body as the client’s doing: no 5xx, no upstream failure', async () => {
    const before = await metric('gateway_upstream_failures_total', { upstream: 'reports' });
    const socket = rawSocket(origin);
    socket.write(`POST /api/reports/upload HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/octet-stream\r\ncontent-length: 500000\r\n\r\n`);
    socket.write(Buffer.alloc(100_000, 0x61));
    await sleep(100);
    socket.destroy();
    await sleep(200);
    expect(await metric('gateway_upstream_failures_total', { upstream: 'reports' })).toBe(before);
    for (const status of ['500', '502', '503', '504']) {
      expect(await metric('gateway_http_requests_total', { route: '/api/reports*', status })).toBeUndefined();
    }
  });
});
