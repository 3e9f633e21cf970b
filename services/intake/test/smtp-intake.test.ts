import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createTestCa, issueCert, type TestCa } from '@sendwell/testing';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntakeSmtpServer, type IntakeSmtpServer } from '../src/smtp/intake-smtp-server.js';
import { startHarness, TEST_INTAKE_DOMAIN, type Harness } from './fixtures.js';
import { reportMessage, SmtpTestClient } from './smtp/smtp-client.js';

interface Running {
  h: Harness;
  smtp: IntakeSmtpServer;
  port: number;
  close(): Promise<void>;
}

async function startIntake(env: Record<string, string> = {}): Promise<Running> {
  const h = await startHarness(env);
  const smtp = createIntakeSmtpServer(h.deps);
  const port = await smtp.listen();
  return {
    h,
    smtp,
    port,
    async close() {
      await smtp.close();
      await h.close();
    },
  };
}

const addressOf = (token: string, kind: 'dmarc' | 'tls' = 'dmarc') => `${kind === 'tls' ? 'tls-' : ''}${token}@${TEST_INTAKE_DOMAIN}`;

async function session(port: number) {
  const { client, greeting } = await SmtpTestClient.connect(port);
  expect(greeting.code).toBe(220);
  const ehlo = await client.command('EHLO mta.reporter.example');
  expect(ehlo.code).toBe(250);
  return { client, ehlo };
}

async function storedRows(h: Harness) {
  const rows = await h.db.selectFrom('intakeMessages').selectAll().orderBy('id').execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), raw: gunzipSync(r.rawGz).toString('latin1') }));
}

const queuedId = (text: string) => Number(/queued as (\d+)/.exec(text)?.[1]);

describe('SMTP intake', () => {
  let run: Running;
  let paid: { id: number; name: string; reportToken: string };
  let paidOther: { id: number; name: string; reportToken: string };

  beforeAll(async () => {
    run = await startIntake();
    const user = await run.h.f.user('standard');
    paid = await run.h.f.domain({ userId: user.id });
    paidOther = await run.h.f.domain({ userId: (await run.h.f.user('advanced')).id });
  });
  afterAll(async () => {
    await run?.close();
  });

  it('advertises SIZE and neither AUTH nor STARTTLS (no certificate configured)', async () => {
    const { client, ehlo } = await session(run.port);
    expect(ehlo.lines).toContain(`SIZE ${run.h.deps.env.INTAKE_MAX_MESSAGE_BYTES}`);
    expect(ehlo.lines.some((l) => l.startsWith('AUTH'))).toBe(false);
    expect(ehlo.lines).not.toContain('STARTTLS');
    expect((await client.command('STARTTLS')).code).toBe(500);
    await client.quit();
  });

  it('stores a message to an issued address once per domain and queues its reading', async () => {
    const { client } = await session(run.port);
    expect((await client.command('MAIL FROM:<noreply-dmarc-support@google.com>')).code).toBe(250);
    // The DMARC and the TLS-RPT address of one domain: one stored message.
    expect((await client.command(`RCPT TO:<${addressOf(paid.reportToken)}>`)).code).toBe(250);
    expect((await client.command(`RCPT TO:<${addressOf(paid.reportToken, 'tls').toUpperCase()}>`)).code).toBe(250);
    const message = reportMessage({ to: addressOf(paid.reportToken) });
    const { start, end } = await client.data(message);
    expect(start.code).toBe(354);
    expect(end?.code).toBe(250);
    expect(end?.text).toMatch(/^250 2\.0\.0 Ok: queued as \d+\r\n$/);
    await client.quit();

    const id = queuedId(end!.text);
    const [row, ...others] = (await storedRows(run.h)).filter((r) => r.domainId === paid.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ id, channel: 'smtp', contentType: null, state: 'queued', size: Buffer.byteLength(message) });
    expect(row!.raw).toBe(message);
    expect(row!.envelope).toEqual({
      clientAddress: '127.0.0.1',
      helo: 'mta.reporter.example',
      mailFrom: 'noreply-dmarc-support@google.com',
      rcptTo: [addressOf(paid.reportToken), addressOf(paid.reportToken, 'tls')],
      tls: false,
    });
    const job = await run.h.deps.queues.intake.getJob(`intake-message-${id}`);
    expect(job?.data).toEqual({ messageId: id });
  });

  it('splits a message to two domains, each row with only its own address', async () => {
    const { client } = await session(run.port);
    await client.command('MAIL FROM:<reports@reporter.example>');
    expect((await client.command(`RCPT TO:<${addressOf(paid.reportToken)}>`)).code).toBe(250);
    expect((await client.command(`RCPT TO:<${addressOf(paidOther.reportToken)}>`)).code).toBe(250);
    const { end } = await client.data(reportMessage({ to: 'x' }));
    expect(end?.code).toBe(250);
    await client.quit();
    const ids = /queued as ([\d,]+)/.exec(end!.text)![1]!.split(',').map(Number);
    expect(ids).toHaveLength(2);
    const rows = (await storedRows(run.h)).filter((r) => ids.includes(r.id));
    expect(rows.map((r) => [r.domainId, (r.envelope as { rcptTo: string[] }).rcptTo])).toEqual([
      [paid.id, [addressOf(paid.reportToken)]],
      [paidOther.id, [addressOf(paidOther.reportToken)]],
    ]);
  });

  it('refuses addresses it did not issue, of deleted domains and of plans without mail flow', async () => {
    const owner = await run.h.f.user('standard');
    const deleted = await run.h.f.domain({ userId: owner.id, deleted: true });
    const free = await run.h.f.domain({ userId: (await run.h.f.user('free')).id });
    const { client } = await session(run.port);
    await client.command('MAIL FROM:<reports@reporter.example>');
    const unknown = await client.command(`RCPT TO:<${'a'.repeat(24)}@${TEST_INTAKE_DOMAIN}>`);
    expect(unknown.text).toMatch(/^550 5\.1\.1 No report address has this token/);
    expect((await client.command('RCPT TO:<postmaster@elsewhere.example>')).text).toMatch(/^550 5\.1\.1 /);
    expect((await client.command(`RCPT TO:<${addressOf(deleted.reportToken)}>`)).text).toMatch(/^550 5\.1\.1 /);
    expect((await client.command(`RCPT TO:<${addressOf(free.reportToken, 'tls')}>`)).text).toMatch(/^550 5\.7\.1 Mail flow reports are available on paid plans/);
    // Nothing accepted, so no DATA.
    expect((await client.command('DATA')).code).toBe(503);
    await client.quit();
  });

  it('accepts at most ten recipients', async () => {
    const user = await run.h.f.user('basic');
    const domains = await Promise.all(Array.from({ length: 11 }, () => run.h.f.domain({ userId: user.id })));
    const { client } = await session(run.port);
    await client.command('MAIL FROM:<reports@reporter.example>');
    const codes: number[] = [];
    for (const d of domains) codes.push((await client.command(`RCPT TO:<${addressOf(d.reportToken)}>`)).code);
    expect(codes).toEqual([...Array<number>(10).fill(250), 452]);
    await client.quit();
  });

  it('closes a connection that keeps guessing addresses (421 after 20 refused recipients)', async () => {
    const { client } = await session(run.port);
    await client.command('MAIL FROM:<reports@reporter.example>');
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await client.command(`RCPT TO:<${String(i).padStart(24, 'c')}@${TEST_INTAKE_DOMAIN}>`)).code);
    expect(new Set(codes)).toEqual(new Set([550]));
    const last = await client.command(`RCPT TO:<${addressOf(paid.reportToken)}>`);
    expect(last.text).toMatch(/^421 4\.7\.0 /);
    await client.waitClosed();
  });

  it('answers 451 4.3.0 when the message cannot be stored, so the sender retries', async () => {
    const { client } = await session(run.port);
    await client.command('MAIL FROM:<reports@reporter.example>');
    await client.command(`RCPT TO:<${addressOf(paid.reportToken)}>`);
    await sql`ALTER TABLE intake_messages RENAME TO intake_messages_away`.execute(run.h.db);
    try {
      const { end } = await client.data(reportMessage({ to: 'x' }));
      expect(end?.text).toMatch(/^451 4\.3\.0 /);
    } finally {
      await sql`ALTER TABLE intake_messages_away RENAME TO intake_messages`.execute(run.h.db);
    }
    // The session goes on: the retry in the same connection is stored.
    await client.command('MAIL FROM:<reports@reporter.example>');
    await client.command(`RCPT TO:<${addressOf(paid.reportToken)}>`);
    expect((await client.data(reportMessage({ to: 'x' }))).end?.code).toBe(250);
    await client.quit();
  });

  it('is reached by a real MTA client (nodemailer), dot-stuffing and all', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: run.port, secure: false, ignoreTLS: true, name: 'mx.sender.example' });
    const raw = reportMessage({ to: addressOf(paid.reportToken), body: '.\r\n..two dots\r\nend\r\n' });
    const info = await transport.sendMail({ envelope: { from: 'dmarc@sender.example', to: [addressOf(paid.reportToken)] }, raw });
    transport.close();
    const id = queuedId(info.response);
    const row = (await storedRows(run.h)).find((r) => r.id === id);
    expect(row?.raw).toBe(raw);
    expect(row?.envelope).toMatchObject({ helo: 'mx.sender.example', mailFrom: 'dmarc@sender.example' });
  });
});

describe('SMTP intake limits', () => {
  it('refuses a message over INTAKE_MAX_MESSAGE_BYTES with 552 and stores nothing, and the session goes on', async () => {
    const run = await startIntake({ INTAKE_MAX_MESSAGE_BYTES: '2048' });
    try {
      const d = await run.h.f.domain({ userId: (await run.h.f.user('standard')).id });
      const { client, ehlo } = await session(run.port);
      expect(ehlo.lines).toContain('SIZE 2048');
      // Declared too large up front.
      expect((await client.command('MAIL FROM:<a@reporter.example> SIZE=4096')).code).toBe(552);
      expect((await client.command('MAIL FROM:<a@reporter.example>')).code).toBe(250);
      await client.command(`RCPT TO:<${addressOf(d.reportToken)}>`);
      const { end } = await client.data(reportMessage({ to: 'x', body: `${'x'.repeat(70)}\r\n`.repeat(100) }));
      expect(end?.text).toMatch(/^552 5\.3\.4 /);
      expect(await storedRows(run.h)).toEqual([]);

      await client.command('MAIL FROM:<a@reporter.example>');
      await client.command(`RCPT TO:<${addressOf(d.reportToken)}>`);
      expect((await client.data(reportMessage({ to: 'x' }))).end?.code).toBe(250);
      await client.quit();
    } finally {
      await run.close();
    }
  });

  it('refuses a client past INTAKE_MAX_CONNECTIONS_PER_CLIENT with 421 at connect, and takes it again once one closes', async () => {
    const run = await startIntake({ INTAKE_MAX_CONNECTIONS_PER_CLIENT: '2' });
    const open: SmtpTestClient[] = [];
    try {
      for (let i = 0; i < 2; i++) open.push((await session(run.port)).client);
      const { client: third, greeting } = await SmtpTestClient.connect(run.port);
      expect(greeting.code).toBe(421);
      expect(greeting.text).toMatch(/Too many connections from your address/);
      await third.waitClosed();

      await open.shift()!.quit();
      // The count drops when the server has seen the close.
      await expect
        .poll(async () => {
          const { client, greeting: g } = await SmtpTestClient.connect(run.port);
          if (g.code === 220) open.push(client);
          else client.destroy();
          return g.code;
        })
        .toBe(220);
    } finally {
      await Promise.all(open.map((c) => c.quit()));
      await run.close();
    }
  });

  it('counts messages per client per minute in Redis and answers 451 4.7.1 at MAIL FROM past the limit', async () => {
    const run = await startIntake({ INTAKE_MESSAGES_PER_CLIENT_PER_MINUTE: '2' });
    try {
      // The window is the clock minute: do not start right before it turns.
      const into = Date.now() % 60_000;
      if (into > 55_000) await new Promise((r) => setTimeout(r, 60_000 - into + 100));
      const { client } = await session(run.port);
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) {
        answers.push((await client.command('MAIL FROM:<a@reporter.example>')).text);
        await client.command('RSET');
      }
      expect(answers[0]).toMatch(/^250 /);
      expect(answers[1]).toMatch(/^250 /);
      expect(answers[2]).toMatch(/^451 4\.7\.1 /);
      await client.quit();

      // The count lives in Redis under the service's prefix (shared by every replica), and expires.
      const redis = new Redis(run.h.deps.env.REDIS_URL);
      try {
        const keys = await redis.keys(`${run.h.prefix}:intake-rate:127.0.0.1:*`);
        expect(keys).toHaveLength(1);
        expect(await redis.get(keys[0]!)).toBe('3');
        expect(await redis.ttl(keys[0]!)).toBeGreaterThan(0);
      } finally {
        redis.disconnect();
      }
    } finally {
      await run.close();
    }
  });

  it('stores the message (for the sweep to queue) when Redis is down', async () => {
    const run = await startIntake({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const d = await run.h.f.domain({ userId: (await run.h.f.user('standard')).id });
      const { client } = await session(run.port);
      expect((await client.command('MAIL FROM:<a@reporter.example>')).code).toBe(250);
      await client.command(`RCPT TO:<${addressOf(d.reportToken)}>`);
      const { end } = await client.data(reportMessage({ to: 'x' }));
      expect(end?.code).toBe(250);
      await client.quit();
      expect(await storedRows(run.h)).toMatchObject([{ id: queuedId(end!.text), domainId: d.id, state: 'queued' }]);
    } finally {
      await run.close();
    }
  });
});

describe('SMTP intake STARTTLS', () => {
  let ca: TestCa;
  let dir: string;
  let run: Running;

  beforeAll(async () => {
    ca = await createTestCa();
    const leaf = await issueCert(ca, { hostnames: ['localhost'] });
    dir = await mkdtemp(join(tmpdir(), 'intake-tls-'));
    await writeFile(join(dir, 'cert.pem'), leaf.cert);
    await writeFile(join(dir, 'key.pem'), leaf.key);
    run = await startIntake({ INTAKE_TLS_CERT_FILE: join(dir, 'cert.pem'), INTAKE_TLS_KEY_FILE: join(dir, 'key.pem') });
  });
  afterAll(async () => {
    await run?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('offers STARTTLS with the configured certificate and records that the message came over TLS', async () => {
    const d = await run.h.f.domain({ userId: (await run.h.f.user('standard')).id });
    const { client, ehlo } = await session(run.port);
    expect(ehlo.lines).toContain('STARTTLS');
    expect(ehlo.lines.some((l) => l.startsWith('AUTH'))).toBe(false);
    const secure = await client.startTls(ca.cert);
    expect(secure.authorized).toBe(true);
    expect(secure.getPeerCertificate().subject.CN).toBe('localhost');
    const again = await client.command('EHLO mta.reporter.example');
    expect(again.lines).not.toContain('STARTTLS');
    await client.command('MAIL FROM:<a@reporter.example>');
    await client.command(`RCPT TO:<${addressOf(d.reportToken)}>`);
    const { end } = await client.data(reportMessage({ to: 'x' }));
    expect(end?.code).toBe(250);
    await client.quit();
    const [row] = await storedRows(run.h);
    expect(row?.envelope).toMatchObject({ tls: true });
  });

  it('is used by nodemailer when required', async () => {
    const d = await run.h.f.domain({ userId: (await run.h.f.user('standard')).id });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: run.port, secure: false, requireTLS: true, tls: { ca: [ca.cert], servername: 'localhost' } });
    const info = await transport.sendMail({ envelope: { from: 'a@reporter.example', to: [addressOf(d.reportToken)] }, raw: reportMessage({ to: 'x' }) });
    transport.close();
    const row = (await storedRows(run.h)).find((r) => r.id === queuedId(info.response));
    expect(row?.envelope).toMatchObject({ tls: true });
  });
});
