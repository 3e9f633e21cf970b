/**
 * What production requires of the services a bench runs with NODE_ENV=production, made for the run:
 * secrets of its own (the development JWT secret and integrations key are refused: server-kit's
 * env.ts, services/domains/src/notify/notify.env.ts), an SMTP server to mail (the outbox is refused),
 * and a verified address for every user who signs in (verification is required by default).
 */
import { randomBytes } from 'node:crypto';
import type { TestSmtpServer } from '@sendwell/testing';

/** A JWT secret and an integrations sealing key (`id:base64`, 32 bytes) for one run; never the development ones. */
export function productionSecrets(): { JWT_SECRET: string; INTEGRATIONS_ENCRYPTION_KEYS: string } {
  return { JWT_SECRET: randomBytes(32).toString('base64url'), INTEGRATIONS_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}` };
}

/**
 * Registers a user through the gateway at `base` and follows the verification link of the mail
 * `smtp` received, as a production user does; answers the session's token and the user's id.
 */
export async function registerVerified(base: string, smtp: TestSmtpServer, label: string): Promise<{ token: string; userId: number }> {
  const id = randomBytes(4).toString('hex');
  const email = `${label}-${id}@bench.example`;
  const password = 'bench-password-0123';
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: `${label}${id}`, email, confirmEmail: email, password, confirmPassword: password }),
    signal: AbortSignal.timeout(30_000),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${(await registered.text()).slice(0, 300)}`);
  const mail = await smtp.waitFor((m) => m.to.includes(email), 30_000);
  const token = /verify-email\?token=([\w-]+)/.exec(`${mail.text}\n${mail.html}`)?.[1];
  if (!token) throw new Error(`no verification link in the mail to ${email}`);
  const verified = await fetch(`${base}/api/auth/verify-email?token=${encodeURIComponent(token)}`, { signal: AbortSignal.timeout(30_000) });
  const text = await verified.text();
  if (!verified.ok) throw new Error(`verify-email answered ${verified.status}: ${text.slice(0, 300)}`);
  const session = JSON.parse(text) as { token: string; user: { id: number } };
  return { token: session.token, userId: session.user.id };
}
