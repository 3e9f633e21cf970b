import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestSmtpServer } from '@sendwell/testing';

export interface MailSummary {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * The SMTP server lives in the global-setup process while tests run in workers, so the mails it
 * received are served over a small loopback HTTP endpoint: GET /mails answers every mail as JSON.
 */
export async function startMailbox(smtp: TestSmtpServer) {
  const server = createServer((req, res) => {
    const mails: MailSummary[] = smtp.messages.map(({ to, subject, text, html }) => ({ to, subject, text, html }));
    res.writeHead(req.url === '/mails' ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(req.url === '/mails' ? mails : { message: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Polls the mailbox until a mail to `to` matching `subject` arrives. */
export async function waitForMail(mailboxUrl: string, to: string, subject: RegExp, timeoutMs = 15_000): Promise<MailSummary> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await (await fetch(`${mailboxUrl}/mails`)).json()) as MailSummary[];
    const found = mails.filter((m) => m.to.includes(to.toLowerCase()) || m.to.includes(to)).reverse().find((m) => subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms (mailbox holds ${mails.length})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The first link in a mail that points at `path` on the app (e.g. /verify-email). */
export function linkFromMail(mail: MailSummary, path: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]+${path.replace(/[/]/g, '\\/')}\\?token=[^\\s"'<>]+`).exec(`${mail.text}\n${mail.html}`);
  if (!match) throw new Error(`No ${path} link in the mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, '&');
}
