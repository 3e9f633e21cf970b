import type { OutboundPolicy } from '@sendwell/server-kit';
import { dialSmtp, SmtpStepError, type SmtpReply as SessionReply, type SmtpSession } from '@sendwell/smtp-client';

/**
 * Recipient probing (RFC 5321 §3.3) over @sendwell/smtp-client: greeting, EHLO (HELO if refused),
 * MAIL FROM, one RCPT TO per recipient, QUIT; never DATA, so nothing is ever delivered. Each RCPT
 * reply is kept as it came, every step has its own timeout and the whole dialogue a deadline; no
 * STARTTLS or AUTH is negotiated. The connection goes through the outbound guard (dialSmtp).
 */

export interface SmtpReply {
  code: number;
  /** Every line's text joined by newlines, without the codes. */
  text: string;
}

export interface ProbeOptions {
  /** The mail host's IP address, vetted by the outbound guard (a name would be resolved again by net). */
  host: string;
  /** The outbound guard's policy; a refused address is never connected to. */
  outbound: OutboundPolicy;
  port: number;
  /** Our name in EHLO; also the domain of the envelope sender. */
  heloDomain: string;
  mailFrom: string;
  recipients: string[];
  /** For each step: connecting, and each reply. */
  stepTimeoutMs: number;
  /** Whole dialogue. */
  deadlineMs: number;
  /** The recipients need SMTPUTF8 (RFC 6531): non-ASCII local parts. */
  smtpUtf8?: boolean;
}

export type ProbeOutcome =
  | { ok: true; rcpt: SmtpReply[] }
  | { ok: false; stage: 'connect' | 'greeting' | 'ehlo' | 'mail' | 'rcpt'; error: string; reply?: SmtpReply };

class ProbeError extends Error {
  constructor(
    readonly stage: Exclude<ProbeOutcome, { ok: true }>['stage'],
    message: string,
    readonly reply?: SmtpReply,
  ) {
    super(message);
  }
}

const positive = (reply: SmtpReply) => reply.code >= 200 && reply.code < 300;
const joined = (reply: SessionReply): SmtpReply => ({ code: reply.code, text: reply.lines.join('\n') });

export async function probeRecipients(options: ProbeOptions): Promise<ProbeOutcome> {
  let session: SmtpSession;
  try {
    ({ session } = await dialSmtp({ address: options.host, port: options.port, outbound: options.outbound, timeoutMs: options.stepTimeoutMs }));
  } catch (error) {
    if (error instanceof SmtpStepError) return { ok: false, stage: 'connect', error: error.message };
    throw error;
  }
  const deadline = setTimeout(() => session.close(new SmtpStepError(`probe exceeded ${options.deadlineMs} ms`, 'timeout')), options.deadlineMs);
  const step = async (stage: ProbeError['stage'], reply: () => Promise<SessionReply>): Promise<SmtpReply> => {
    try {
      return joined(await reply());
    } catch (error) {
      if (error instanceof SmtpStepError) throw new ProbeError(stage, error.message);
      throw error;
    }
  };
  const send = (stage: ProbeError['stage'], line: string) => step(stage, () => session.command(line, options.stepTimeoutMs, 'reply'));

  try {
    const greeting = await step('greeting', () => session.read(options.stepTimeoutMs, 'reply'));
    if (greeting.code !== 220) throw new ProbeError('greeting', `server refused the session (${greeting.code})`, greeting);

    let hello = await send('ehlo', `EHLO ${options.heloDomain}`);
    let extensions: string[] = [];
    if (positive(hello)) extensions = hello.text.split('\n').slice(1).map((l) => l.trim().toUpperCase());
    else hello = await send('ehlo', `HELO ${options.heloDomain}`);
    if (!positive(hello)) throw new ProbeError('ehlo', `server refused our greeting (${hello.code})`, hello);

    let mailFrom = `MAIL FROM:<${options.mailFrom}>`;
    if (options.smtpUtf8) {
      if (!extensions.some((e) => e === 'SMTPUTF8')) throw new ProbeError('mail', 'server does not support internationalised addresses (SMTPUTF8)');
      mailFrom += ' SMTPUTF8';
    }
    const mail = await send('mail', mailFrom);
    if (!positive(mail)) throw new ProbeError('mail', `server refused the sender (${mail.code})`, mail);

    const rcpt: SmtpReply[] = [];
    for (const recipient of options.recipients) rcpt.push(await send('rcpt', `RCPT TO:<${recipient}>`));

    // Politeness only: the answers are in, so a QUIT that fails changes nothing.
    await session.quit(Math.min(options.stepTimeoutMs, 1_000));
    return { ok: true, rcpt };
  } catch (error) {
    if (error instanceof ProbeError) return { ok: false, stage: error.stage, error: error.message, ...(error.reply ? { reply: error.reply } : {}) };
    return { ok: false, stage: 'rcpt', error: (error as Error).message };
  } finally {
    clearTimeout(deadline);
    session.close();
  }
}
