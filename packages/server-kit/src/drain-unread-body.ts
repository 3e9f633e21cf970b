import type { IncomingMessage } from 'node:http';
import type { App } from './app.js';

/** Longest wait for the rest of a body before answering anyway (the client may have stalled). */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Reads and discards what is left of a request body before an answer given early (401 at
 * authentication, 403, 404, a refusal before the body was parsed) goes out. Behind the gateway the body
 * is still being forwarded when such an answer comes back, and undici, seeing an answer before it
 * finished sending, gives up on the connection: the client would get 502 instead of the answer. Only
 * for services that take large bodies (the gateway's own limit stops the others' before they are sent);
 * a body past `limit` is not waited for, nor one that stops arriving.
 */
export function drainUnreadBodies(app: App, limit: number): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    await drain(request.raw, limit);
    return payload;
  });
}

function drain(raw: IncomingMessage, limit: number): Promise<void> {
  if (raw.readableEnded || raw.destroyed || raw.complete) return Promise.resolve();
  const declared = Number(raw.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) done();
    };
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.resume();
  });
}
