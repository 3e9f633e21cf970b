import { MAIL_TEST_EVENT, mailTestChannel, mailTestSchema, type MailTest } from '@sendwell/contracts';
import { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisFixture } from './mail-tests/analysis.js';
import { createMailTest, startRunningIntake, testMessage, type RunningIntake } from './mail-tests/running-intake.js';
import { SseTestClient } from './mail-tests/sse-client.js';

describe('mail test events', () => {
  let run: RunningIntake;
  let publisher: Redis;
  let headers: Record<string, string>;
  beforeAll(async () => {
    run = await startRunningIntake();
    publisher = new Redis(run.h.deps.env.REDIS_URL);
    headers = await run.h.auth(await run.h.f.user('standard'));
  });
  afterAll(async () => {
    publisher?.disconnect();
    await run?.close();
  });

  const open = (id: number) => SseTestClient.open(`${run.baseUrl}/api/mail-tests/${id}/events`, headers);
  async function nextStatus(stream: SseTestClient): Promise<MailTest> {
    const event = await stream.next();
    expect(event.event).toBe(MAIL_TEST_EVENT);
    return mailTestSchema.parse(JSON.parse(event.data));
  }

  it('streams waiting, received on the SMTP delivery, then done from the scanner, and ends', async () => {
    const test = await createMailTest(run.h, headers);
    const stream = await open(test.id);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    expect(await nextStatus(stream)).toMatchObject({ id: test.id, status: 'waiting', session: null });

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: run.smtpPort, secure: false, ignoreTLS: true, name: 'mx.sender.example' });
    await transport.sendMail({ envelope: { from: 'alice@sender.example', to: [test.address] }, raw: testMessage(test.address) });
    transport.close();
    const received = await nextStatus(stream);
    expect(received).toMatchObject({ status: 'received', session: { helo: 'mx.sender.example', rcptTo: [test.address] } });

    // What the scanner does when its analysis is done: the row, then a publication on the test's channel.
    const analysis = analysisFixture();
    await run.h.db
      .updateTable('inboxPlacementTests')
      .set({ status: 'done', results: JSON.stringify(analysis), score: analysis.score.value, fromEmail: 'alice@sender.example', subject: 'Hello', completedAt: new Date(), attempts: 1 })
      .where('id', '=', test.id)
      .execute();
    await publisher.publish(mailTestChannel(test.id), 'done');
    expect(await nextStatus(stream)).toMatchObject({ status: 'done', score: 8.5, fromAddress: 'alice@sender.example', subject: 'Hello', analysis, error: null });
    await stream.ended;
    // The last stream of the channel gone, the shared subscriber leaves it.
    await expect.poll(() => run.h.deps.mailTestEvents.channelCount).toBe(0);
  });

  it('sends one event and ends for a settled test, and ends a waiting one at its expiry', async () => {
    const failed = await createMailTest(run.h, headers);
    await run.h.db.updateTable('inboxPlacementTests').set({ status: 'failed', error: 'Could not be read' }).where('id', '=', failed.id).execute();
    const settled = await open(failed.id);
    expect(await nextStatus(settled)).toMatchObject({ status: 'failed', error: 'Could not be read' });
    await settled.ended;

    const soon = await createMailTest(run.h, headers);
    await run.h.db.updateTable('inboxPlacementTests').set({ expiresAt: new Date(Date.now() + 1_000) }).where('id', '=', soon.id).execute();
    const waiting = await open(soon.id);
    expect(await nextStatus(waiting)).toMatchObject({ status: 'waiting' });
    expect(await nextStatus(waiting)).toMatchObject({ status: 'expired' });
    await waiting.ended;
  });

  it('relays one publication to every stream of the test through one subscription', async () => {
    const test = await createMailTest(run.h, headers);
    const streams = await Promise.all([open(test.id), open(test.id)]);
    for (const s of streams) expect(await nextStatus(s)).toMatchObject({ status: 'waiting' });
    expect(run.h.deps.mailTestEvents.channelCount).toBe(1);
    await run.h.db.updateTable('inboxPlacementTests').set({ status: 'failed', error: 'No luck' }).where('id', '=', test.id).execute();
    await publisher.publish(mailTestChannel(test.id), 'failed');
    for (const s of streams) {
      expect(await nextStatus(s)).toMatchObject({ status: 'failed', error: 'No luck' });
      await s.ended;
    }
  });

  it('ends open streams when the server closes', async () => {
    const other = await startRunningIntake();
    try {
      const owner = await other.h.auth(await other.h.f.user('standard'));
      const test = await createMailTest(other.h, owner);
      const stream = await SseTestClient.open(`${other.baseUrl}/api/mail-tests/${test.id}/events`, owner);
      expect((await stream.next()).event).toBe(MAIL_TEST_EVENT);
      await other.h.app.close();
      await stream.ended;
    } finally {
      await other.close();
    }
  });
});
