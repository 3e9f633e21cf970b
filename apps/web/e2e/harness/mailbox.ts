import type { MailSummary } from '@sendwell/testing';

export type { MailSummary };

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
  const match = new RegExp(`https?://[^\\s"'<>]+${path.replace(/\//g, '\\/')}\\?token=[^\\s"'<>]+`).exec(`${mail.text}\n${mail.html}`);
  if (!match) throw new Error(`No ${path} link in the mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, '&');
}
