import type { AddressInfo } from 'node:net';
import { mailTestSummarySchema, type MailTestSummary } from '@sendwell/contracts';
import { createIntakeSmtpServer, type IntakeSmtpServer } from '../../src/smtp/intake-smtp-server.js';
import { startHarness, type Harness } from '../fixtures.js';

export interface RunningIntake {
  h: Harness;
  smtp: IntakeSmtpServer;
  smtpPort: number;
  /** The HTTP side listening on loopback (streams are read over real connections). */
  baseUrl: string;
  close(): Promise<void>;
}

/** The harness with its SMTP server and its HTTP server listening on free ports. */
export async function startRunningIntake(env: Record<string, string> = {}): Promise<RunningIntake> {
  const h = await startHarness(env);
  const smtp = createIntakeSmtpServer(h.deps);
  const smtpPort = await smtp.listen();
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = h.app.server.address() as AddressInfo;
  return {
    h,
    smtp,
    smtpPort,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await smtp.close();
      await h.close();
    },
  };
}

/** A test created through the API, as a user does. */
export async function createMailTest(h: Harness, headers: Record<string, string>): Promise<MailTestSummary> {
  const res = await h.app.inject({ method: 'POST', url: '/api/mail-tests', headers });
  if (res.statusCode !== 201) throw new Error(`POST /api/mail-tests answered ${res.statusCode}: ${res.body}`);
  return mailTestSummarySchema.parse(res.json());
}

/** A small message as a user's mail system sends it. */
export function testMessage(to: string): string {
  return ['From: Alice <alice@sender.example>', `To: ${to}`, 'Subject: Hello from our newsletter', 'Message-ID: <m1@sender.example>', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=us-ascii', '', 'Hello.', '.a line starting with a dot', ''].join('\r\n');
}
