import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestSmtpServer } from './smtp.js';

export interface MailSummary {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * The SMTP server lives in a test run's global-setup process while tests run in workers, so the mails
 * it received are served over a small loopback HTTP endpoint: GET /mails answers every mail as JSON.
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
