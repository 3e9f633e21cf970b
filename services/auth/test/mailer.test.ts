import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '@sendwell/server-kit';
import { startSmtpServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '@sendwell/server-kit';
import { passwordResetMail, verificationMail } from '../src/mail/templates.js';

const recipient = { email: 'lin@example.com', username: 'lin', firstName: null };
const logger = createLogger('mailer-test', 'silent');

/** Every line the mailer logs, as the JSON it would print. */
function recordingLogger(): { logger: Logger; output: () => string } {
  const lines: string[] = [];
  const record = (...args: unknown[]) => void lines.push(JSON.stringify(args));
  const recorder = { info: record, warn: record, error: record, debug: record, trace: record, fatal: record } as unknown as Logger;
  return { logger: recorder, output: () => lines.join('\n') };
}

describe('mailer logs', () => {
  const link = 'http://localhost:3000/verify-email?token=s3cr3t-T0ken-value';
  const mailers = {
    outbox: async () => {
      const outboxDir = await mkdtemp(join(tmpdir(), 'sendwell-outbox-'));
      return { smtpUrl: undefined, outboxDir, close: () => rm(outboxDir, { recursive: true, force: true }) };
    },
    smtp: async () => {
      const smtp = await startSmtpServer();
      return { smtpUrl: smtp.url, outboxDir: '/nonexistent', close: () => smtp.close() };
    },
  };
  it.each(Object.keys(mailers) as Array<keyof typeof mailers>)('%s: a verification mail is logged without its link, token or recipient', async (kind) => {
    const target = await mailers[kind]();
    const { logger: recorder, output } = recordingLogger();
    const mailer = createMailer({ smtpUrl: target.smtpUrl, from: 'Sendwell <no-reply@sendwell.local>', outboxDir: target.outboxDir, logger: recorder });
    try {
      await mailer.send(verificationMail(recipient, link));
    } finally {
      mailer.close();
      await target.close();
    }
    expect(output()).toContain('Verify your email address for Sendwell');
    expect(output()).not.toContain('s3cr3t-T0ken-value');
    expect(output()).not.toContain('verify-email');
    expect(output()).not.toContain('lin@example.com');
  });
});

describe('mailer without SMTP_URL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sendwell-outbox-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes each message to the outbox as .eml and .json', async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: 'Sendwell <no-reply@sendwell.local>', outboxDir: join(dir, 'nested'), logger });
    await mailer.send(verificationMail(recipient, 'http://localhost:3000/verify-email?token=abc'));
    mailer.close();
    const files = (await readdir(join(dir, 'nested'))).sort();
    expect(files.map((f) => f.split('.').pop())).toEqual(['eml', 'json']);
    const eml = await readFile(join(dir, 'nested', files[0]!), 'utf8');
    expect(eml).toMatch(/^From: Sendwell <no-reply@sendwell\.local>$/m);
    expect(eml).toMatch(/^To: lin@example\.com$/m);
    expect(eml).toContain('multipart/alternative');
    const json = JSON.parse(await readFile(join(dir, 'nested', files[1]!), 'utf8'));
    expect(json).toMatchObject({ to: 'lin@example.com', subject: 'Verify your email address for Sendwell', link: 'http://localhost:3000/verify-email?token=abc' });
  });
});

describe('mailer over SMTP', () => {
  it('delivers plain text and HTML from MAIL_FROM', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'Sendwell Test <robot@sendwell.test>', outboxDir: '/nonexistent', logger });
    try {
      await mailer.send(passwordResetMail(recipient, 'http://localhost:3000/reset-password?token=xyz'));
      const mail = await smtp.waitFor((m) => m.to.includes('lin@example.com'));
      expect(mail.from).toBe('robot@sendwell.test');
      expect(mail.text).toContain('Hi lin,');
      expect(mail.text).toContain('http://localhost:3000/reset-password?token=xyz');
      expect(mail.html).toContain('href="http://localhost:3000/reset-password?token=xyz"');
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
