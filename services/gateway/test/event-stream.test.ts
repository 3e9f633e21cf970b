import type { AddressInfo } from 'node:net';
import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './helpers.js';

/**
 * A stand-in for the intake's event stream: one event at once, then silence until the test says
 * `release()`, then a second event and the end. The gateway's upstream timeout is far shorter than
 * the silence, so only a stream passed through chunk by chunk, with the event-stream idle time, gets both.
 */
async function startEventSource() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let upstreamEnded = false;
  const app: FastifyInstance = Fastify({ forceCloseConnections: true });
  app.get('/api/mail-tests/:id/events', async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    reply.raw.write('event: status\ndata: {"status":"waiting"}\n\n');
    await released;
    reply.raw.end('event: status\ndata: {"status":"done"}\n\n', () => {
      upstreamEnded = true;
    });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, release, ended: () => upstreamEnded, close: () => app.close() };
}

describe('server-sent events through the gateway', () => {
  let source: Awaited<ReturnType<typeof startEventSource>>;
  let gateway: Gateway;
  let gatewayUrl: string;

  beforeAll(async () => {
    source = await startEventSource();
    gateway = await startGateway({ INTAKE_URL: source.url, UPSTREAM_TIMEOUT_MS: '300' });
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    gatewayUrl = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    source?.release();
    await gateway?.close();
    await source?.close();
  });

  it('passes each event on as it comes, before the upstream answer ends, and outlives the upstream timeout', async () => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${gatewayUrl}/api/mail-tests/7/events`, { headers: { accept: 'text/event-stream' } }, resolve).once('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    response.setEncoding('utf8');
    let received = '';
    const chunks: (() => void)[] = [];
    response.on('data', (chunk: string) => {
      received += chunk;
      for (const wake of chunks.splice(0)) wake();
    });
    const ended = new Promise<void>((resolve, reject) => {
      response.once('end', resolve);
      response.once('error', reject);
    });
    let done = false;
    void ended.then(() => (done = true));
    const waitFor = async (text: string) => {
      while (!received.includes(text)) {
        if (done) throw new Error(`stream ended without ${text}; got ${received}`);
        await Promise.race([new Promise<void>((resolve) => chunks.push(resolve)), ended]);
      }
    };

    await waitFor('"waiting"');
    expect(source.ended()).toBe(false);
    // Silent for more than three upstream timeouts: an answer read whole, or cut at the timeout, fails here.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    source.release();
    await ended;
    expect(received).toBe('event: status\ndata: {"status":"waiting"}\n\nevent: status\ndata: {"status":"done"}\n\n');
  });
});
