import { PassThrough } from 'node:stream';
import { MAIL_TEST_EVENT, mailTestChannel, type MailTest } from '@sendwell/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRelay } from './channel-relay.js';
import { isMailTestSettled } from './mail-test.mapper.js';

/** A comment line this often keeps proxies and browsers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

export interface MailTestEventStreamOptions {
  testId: number;
  /** The test as the caller may see it now (re-read on every publication). */
  load(): Promise<MailTest>;
  relay: ChannelRelay;
  log: FastifyBaseLogger;
}

function statusEvent(test: MailTest): string {
  return `event: ${MAIL_TEST_EVENT}\ndata: ${JSON.stringify(test)}\n\n`;
}

/**
 * The server-sent events of one test: its status at once, again on every publication on its
 * channel, a heartbeat comment every HEARTBEAT_MS, and the end once it is done, failed or expired
 * (a waiting test is read again at its expiry). Subscribed before the first read, so no change
 * between the two is missed. Destroying the stream (the client left, the server closes) cleans up.
 */
export async function openMailTestEventStream({ testId, load, relay, log }: MailTestEventStreamOptions): Promise<PassThrough> {
  const stream = new PassThrough();
  let expiry: NodeJS.Timeout | undefined;
  // Reads one after the other, so events go out in the order of the publications.
  let reading = Promise.resolve();

  const send = (test: MailTest) => {
    if (stream.writableEnded || stream.destroyed) return;
    stream.write(statusEvent(test));
    if (isMailTestSettled(test.status)) {
      stream.end();
      return;
    }
    clearTimeout(expiry);
    if (test.status === 'waiting') expiry = setTimeout(refresh, Math.max(0, Date.parse(test.expiresAt) - Date.now()) + 1);
  };
  function refresh() {
    reading = reading
      .then(load)
      .then(send)
      .catch((err: unknown) => {
        log.warn({ err, testId }, 'mail test not read for its event stream');
        stream.destroy();
      });
  }

  const leave = await relay.subscribe(mailTestChannel(testId), refresh);
  const heartbeat = setInterval(() => {
    if (!stream.writableEnded) stream.write(': heartbeat\n\n');
  }, HEARTBEAT_MS);
  stream.once('close', () => {
    clearInterval(heartbeat);
    clearTimeout(expiry);
    leave();
  });
  try {
    send(await load());
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return stream;
}
