import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { analyseMailTestJobId, MAIL_TEST_UNKNOWN_ADDRESS, mailTestAddressOf, mailTestSchema, type MailTestSummary } from '@sendwell/contracts';
import { createTestCa, issueCert, type TestCa } from '@sendwell/testing';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_INTAKE_DOMAIN, type Harness } from './fixtures.js';
import { createMailTest, startRunningIntake, testMessage, type RunningIntake } from './mail-tests/running-intake.js';
import { reportMessage, SmtpTestClient } from './smtp/smtp-client.js';

async function session(port: number) {
  const { client, greeting } = await SmtpTestClient.connect(port);
  expect(greeting.code).toBe(220);
  expect((await client.command('EHLO mx.sender.example')).code).toBe(250);
  return client;
}

async function storedTest(h: Harness, id: number) {
  const row = await h.db.selectFrom('inboxPlacementTests').select(['status', 'session', 'rawGz', 'receivedAt']).where('id', '=', id).executeTakeFirstOrThrow();
  return { ...row, raw: row.rawGz ? gunzipSync(row.rawGz).toString('latin1') : null };
}

describe('SMTP intake of test messages', () => {
  let run: RunningIntake;
  let headers: Record<string, string>;
  beforeAll(async () => {
    run = await startRunningIntake();
    headers = await run.h.auth(await run.h.f.user('standard'));
  });
  afterAll(async () => {
    await run?.close();
  });

  it('stores a message to a waiting test with the session, queues its analysis, and takes no second one', async () => {
    const test = await createMailTest(run.h, headers);
    const client = await session(run.smtpPort);
    expect((await client.command('MAIL FROM:<alice@sender.example>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<${test.address.toUpperCase()}>`)).code).toBe(250);
    const message = testMessage(test.address);
    const { end } = await client.data(message);
    expect(end?.text).toBe(`250 2.0.0 Ok: queued as ${analyseMailTestJobId(test.id)}\r\n`);

    const row = await storedTest(run.h, test.id);
    expect(row.status).toBe('received');
    expect(row.raw).toBe(message);
    expect(row.session).toEqual({
      clientAddress: '127.0.0.1',
      helo: 'mx.sender.example',
      mailFrom: 'alice@sender.example',
      rcptTo: [test.address],
      tls: null,
      receivedAt: row.receivedAt!.toISOString(),
      sizeBytes: Buffer.byteLength(message),
    });
    const job = await run.h.deps.queues.scan.getJob(analyseMailTestJobId(test.id));
    expect(job?.name).toBe('analyse-mail-test');
    expect(job?.data).toEqual({ testId: test.id });

    const answer = mailTestSchema.parse((await run.h.app.inject({ method: 'GET', url: `/api/mail-tests/${test.id}`, headers })).json());
    expect(answer).toMatchObject({ status: 'received', receivedAt: row.receivedAt!.toISOString(), session: row.session });

    // The address is used: the next message (in the same connection, or another) is refused.
    await client.command('MAIL FROM:<alice@sender.example>');
    const again = await client.command(`RCPT TO:<${test.address}>`);
    expect(again.text).toBe(`550 5.1.1 ${MAIL_TEST_UNKNOWN_ADDRESS}\r\n`);
    await client.quit();
  });

  it('refuses unknown and expired test addresses with 550 5.1.1, counted as refused recipients', async () => {
    const expired = await createMailTest(run.h, headers);
    await run.h.db.updateTable('inboxPlacementTests').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', expired.id).execute();
    const client = await session(run.smtpPort);
    await client.command('MAIL FROM:<alice@sender.example>');
    for (const address of [expired.address, mailTestAddressOf('a'.repeat(24), TEST_INTAKE_DOMAIN)]) {
      expect((await client.command(`RCPT TO:<${address}>`)).text).toBe(`550 5.1.1 ${MAIL_TEST_UNKNOWN_ADDRESS}\r\n`);
    }
    // With the two above, 20 refused recipients in all: the next command closes the connection.
    for (let i = 0; i < 18; i++) expect((await client.command(`RCPT TO:<test-${String(i).padStart(24, 'b')}@${TEST_INTAKE_DOMAIN}>`)).code).toBe(550);
    expect((await client.command(`RCPT TO:<${expired.address}>`)).text).toMatch(/^421 4\.7\.0 /);
    await client.waitClosed();
    expect((await storedTest(run.h, expired.id)).status).toBe('waiting');
  });

  it('takes a report address and a test address in one transaction, each stored with its own recipient', async () => {
    const domain = await run.h.f.domain({ userId: (await run.h.f.user('standard')).id });
    const reportAddress = `${domain.reportToken}@${TEST_INTAKE_DOMAIN}`;
    const test = await createMailTest(run.h, headers);
    const client = await session(run.smtpPort);
    await client.command('MAIL FROM:<reports@sender.example>');
    expect((await client.command(`RCPT TO:<${reportAddress}>`)).code).toBe(250);
    expect((await client.command(`RCPT TO:<${test.address}>`)).code).toBe(250);
    const { end } = await client.data(reportMessage({ to: reportAddress }));
    expect(end?.text).toMatch(new RegExp(`^250 2\\.0\\.0 Ok: queued as \\d+,${analyseMailTestJobId(test.id)}\\r\\n$`));
    await client.quit();
    const message = await run.h.db.selectFrom('intakeMessages').select(['envelope']).where('domainId', '=', domain.id).executeTakeFirstOrThrow();
    expect(message.envelope).toMatchObject({ rcptTo: [reportAddress] });
    expect((await storedTest(run.h, test.id)).session).toMatchObject({ rcptTo: [test.address], mailFrom: 'reports@sender.example' });
  });
});

describe('SMTP intake of test messages over STARTTLS', () => {
  let ca: TestCa;
  let dir: string;
  let run: RunningIntake;
  beforeAll(async () => {
    ca = await createTestCa();
    const leaf = await issueCert(ca, { hostnames: ['localhost'] });
    dir = await mkdtemp(join(tmpdir(), 'intake-mail-tests-tls-'));
    await writeFile(join(dir, 'cert.pem'), leaf.cert);
    await writeFile(join(dir, 'key.pem'), leaf.key);
    run = await startRunningIntake({ INTAKE_TLS_CERT_FILE: join(dir, 'cert.pem'), INTAKE_TLS_KEY_FILE: join(dir, 'key.pem') });
  });
  afterAll(async () => {
    await run?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records the TLS protocol and cipher of a message sent by nodemailer over STARTTLS', async () => {
    const test: MailTestSummary = await createMailTest(run.h, await run.h.auth(await run.h.f.user('advanced')));
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: run.smtpPort, secure: false, requireTLS: true, name: 'mx.sender.example', tls: { ca: [ca.cert], servername: 'localhost' } });
    const info = await transport.sendMail({ envelope: { from: 'alice@sender.example', to: [test.address] }, raw: testMessage(test.address) });
    transport.close();
    expect(info.response).toBe(`250 2.0.0 Ok: queued as ${analyseMailTestJobId(test.id)}`);
    const row = await storedTest(run.h, test.id);
    expect(row.status).toBe('received');
    const tls = (row.session as { tls: { protocol: string; cipher: string } }).tls;
    expect(tls.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(tls.cipher).toMatch(/^[A-Z0-9_-]+$/);
    expect(await run.h.deps.queues.scan.getJob(analyseMailTestJobId(test.id))).toBeTruthy();
  });
});
