import net from 'node:net';
import { addressRefusal, describeSocketError, type OutboundPolicy } from '@sendwell/server-kit';

/**
 * A minimal SMTP client for recipient probing (RFC 5321 §3.3): greeting, EHLO (HELO if refused),
 * MAIL FROM, one RCPT TO per recipient, QUIT; never DATA, so nothing is ever delivered. Our own over
 * `net` rather than nodemailer's SMTPConnection because that is an internal module built to send
 * (its RCPT failures surface as one send error), while probing needs each RCPT reply as it came,
 * strict per-step timeouts and no STARTTLS or AUTH negotiation.
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

/** One connection's reply stream: lines are gathered into replies ("250-..." continues, "250 ..." ends). */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private readonly replies: SmtpReply[] = [];
  private waiter: ((reply: SmtpReply | Error) => void) | null = null;
  private failure: Error | null = null;

  constructor(socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.push(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  private push(chunk: string) {
    this.buffer += chunk;
    // A server that never ends a line must not grow the buffer without bound.
    if (this.buffer.length > 64 * 1024) return this.fail(new Error('reply too long'));
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!match) return this.fail(new Error(`malformed reply line: ${line.slice(0, 80)}`));
      this.lines.push(match[3] ?? '');
      if (match[2] !== '-') {
        this.deliver({ code: Number(match[1]), text: this.lines.join('\n') });
        this.lines = [];
      }
    }
  }

  private deliver(reply: SmtpReply) {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(reply);
    } else this.replies.push(reply);
  }

  private fail(error: Error) {
    this.failure ??= error;
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(this.failure);
    }
  }

  next(timeoutMs: number): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = (reply) => {
        clearTimeout(timer);
        if (reply instanceof Error) reject(reply);
        else resolve(reply);
      };
    });
  }
}

function connect(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      socket.destroy();
      // Plain words: the raw text names the address and port, and the description reaches the user.
      reject(new Error(describeSocketError(error)));
    });
  });
}

const positive = (reply: SmtpReply) => reply.code >= 200 && reply.code < 300;

export async function probeRecipients(options: ProbeOptions): Promise<ProbeOutcome> {
  const refusal = addressRefusal(options.host, options.outbound);
  if (refusal !== null) return { ok: false, stage: 'connect', error: `the mail server is on a private address (${refusal})` };
  let socket: net.Socket;
  try {
    socket = await connect(options.host, options.port, options.stepTimeoutMs);
  } catch (error) {
    return { ok: false, stage: 'connect', error: (error as Error).message };
  }
  const deadline = setTimeout(() => socket.destroy(new Error(`probe exceeded ${options.deadlineMs} ms`)), options.deadlineMs);
  const reader = new ReplyReader(socket);
  const send = async (stage: ProbeError['stage'], line: string): Promise<SmtpReply> => {
    socket.write(`${line}\r\n`);
    return read(stage);
  };
  const read = async (stage: ProbeError['stage']): Promise<SmtpReply> => {
    try {
      return await reader.next(options.stepTimeoutMs);
    } catch (error) {
      throw new ProbeError(stage, (error as Error).message);
    }
  };

  try {
    const greeting = await read('greeting');
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
    socket.write('QUIT\r\n');
    await reader.next(Math.min(options.stepTimeoutMs, 1_000)).catch(() => undefined);
    return { ok: true, rcpt };
  } catch (error) {
    if (error instanceof ProbeError) return { ok: false, stage: error.stage, error: error.message, ...(error.reply ? { reply: error.reply } : {}) };
    return { ok: false, stage: 'rcpt', error: (error as Error).message };
  } finally {
    clearTimeout(deadline);
    socket.end();
    socket.destroy();
  }
}
