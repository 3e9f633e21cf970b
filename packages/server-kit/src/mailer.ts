import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { Logger } from './logger.js';

/** The mail settings of every service that sends mail (auth, billing). */
export const mailEnvFields = {
  /** Origin of the web app, for the links in mail. */
  APP_URL: z.string().url().default('http://localhost:3000').transform((v) => v.replace(/(?<!\/)\/+$/, '')),
  /** smtp:// or smtps:// URL; unset, mail is written to MAIL_OUTBOX_DIR and logged. */
  SMTP_URL: z.string().url().refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Sendwell <no-reply@sendwell.local>'),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
};

/** The outbox only suits a developer's machine: in production the mail would never reach anyone. */
export const requireSmtpInProduction = <T extends { NODE_ENV: string; SMTP_URL?: string | undefined }>(env: T, ctx: z.RefinementCtx) => {
  if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'must be set in production (without it mail is only written to MAIL_OUTBOX_DIR)' });
  }
};

/** `.outbox` at the repository root when running inside it, else in the working directory. */
export function defaultOutboxDir(cwd = process.cwd()): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, '.outbox');
    if (dirname(dir) === dir) return join(resolve(cwd), '.outbox');
  }
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link inside; kept in the outbox's .json so a developer can follow it, never logged. */
  link?: string;
  /** Files attached (a report's PDF); the outbox's .json names them, the .eml carries them. */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  /** Resolves once the message is accepted (by the SMTP server, or written to the outbox); rejects otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}

/**
 * nodemailer over SMTP_URL; without it (development and tests only: the env refuses it in production),
 * each message goes to the outbox folder. The log names the subject and the message or file, never
 * the recipient nor the link: a link carries a token that signs in or resets a password.
 */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : outboxMailer(options);
}

function smtpMailer(url: string, { from, logger }: MailerOptions): Mailer {
  // Bounded waits: registration waits for the mail, so a dead server must fail fast, not hang.
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send({ to, subject, text, html, attachments }) {
      const info = await transport.sendMail({ from, to, subject, text, html, attachments });
      logger.info({ subject, messageId: info.messageId }, 'mail sent');
    },
    close: () => transport.close(),
  };
}

function outboxMailer({ from, outboxDir, logger }: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send({ to, subject, text, html, link, attachments }) {
      const info = await transport.sendMail({ from, to, subject, text, html, attachments });
      const base = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
      await mkdir(outboxDir, { recursive: true });
      const eml = join(outboxDir, `${base}.eml`);
      await writeFile(eml, info.message as Buffer);
      await writeFile(join(outboxDir, `${base}.json`), `${JSON.stringify({ from, to, subject, text, html, link, attachments: attachments?.map((a) => a.filename), createdAt: new Date().toISOString() }, null, 2)}\n`);
      logger.info({ subject, file: eml }, 'mail written to outbox (SMTP_URL is not set); the link is in its .json');
    },
    close: () => transport.close(),
  };
}
