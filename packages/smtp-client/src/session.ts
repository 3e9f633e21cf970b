import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { describeSocketError } from '@sendwell/server-kit';
import { ReplyReader, type SmtpReply } from './reply-reader.js';

/**
 * A minimal SMTP client conversation (RFC 5321 §4.2 replies, RFC 3207 STARTTLS) over one socket that
 * STARTTLS swaps for a TLS socket. Every wait has its own timeout; close() destroys both sockets.
 * Sessions are opened by dialSmtp (dial.ts), which puts the outbound guard before the connection.
 */

/** Why a step failed: the connection (refused by the guard, refused, timed out, closed), or what the server sent. */
export class SmtpStepError extends Error {
  override name = 'SmtpStepError';
  constructor(
    message: string,
    readonly kind: 'timeout' | 'closed' | 'socket' | 'protocol' | 'tls' | 'refused',
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The client speaks one command at a time, so more replies than this waiting unread is a server talking to itself. */
export const MAX_UNREAD_REPLIES = 16;

type Waiter = { resolve: (reply: SmtpReply) => void; reject: (error: SmtpStepError) => void };

export class SmtpSession {
  private socket: net.Socket | tls.TLSSocket;
  private raw: net.Socket;
  private reader = new ReplyReader();
  private replies: SmtpReply[] = [];
  private waiter: Waiter | null = null;
  private failure: SmtpStepError | null = null;
  /** A reply never came: the conversation is out of step, so QUIT is not worth waiting for. */
  private stalled = false;
  /** performance.now() when the last complete reply arrived: when the socket delivered its last chunk. */
  lastReplyAt = 0;
  /** performance.now() at the top of the current chunk's 'data' handler. */
  private chunkAt = 0;

  /** A session over a socket that has just connected (dialSmtp makes it). */
  constructor(socket: net.Socket) {
    this.raw = socket;
    this.socket = socket;
    this.listen(socket);
  }

  private listen(socket: net.Socket): void {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => this.fail(new SmtpStepError(describeSocketError(error), 'socket', error.code)));
    socket.on('close', () => this.fail(new SmtpStepError('the server closed the connection', 'closed')));
  }

  private receive(chunk: string): void {
    if (this.failure) return;
    this.chunkAt = performance.now();
    const { replies, error } = this.reader.read(chunk);
    for (const reply of replies) {
      this.deliver(reply);
      if (this.failure) return;
    }
    if (error) this.fail(new SmtpStepError(error, 'protocol'));
  }

  private deliver(reply: SmtpReply): void {
    this.lastReplyAt = this.chunkAt;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve(reply);
    } else if (this.replies.length < MAX_UNREAD_REPLIES) {
      this.replies.push(reply);
    } else {
      this.fail(new SmtpStepError(`the server sent more than ${MAX_UNREAD_REPLIES} replies nobody asked for`, 'protocol'));
    }
  }

  private fail(error: SmtpStepError): void {
    if (this.failure) return;
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(error);
  }

  /** The next reply, within `timeoutMs`; a timeout says "no {what} within … ms". */
  read(timeoutMs: number, what: string): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        this.stalled = true;
        reject(new SmtpStepError(`no ${what} within ${timeoutMs} ms`, 'timeout'));
      }, timeoutMs);
      this.waiter = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Sends one command line and reads its reply; `what` names the reply in a timeout (default "reply to VERB"). */
  async command(line: string, timeoutMs: number, what = `reply to ${line.split(' ')[0]}`): Promise<SmtpReply> {
    if (this.failure) throw this.failure;
    this.socket.write(`${line}\r\n`);
    return this.read(timeoutMs, what);
  }

  /**
   * Upgrades the connection after the server's 220 to STARTTLS (RFC 3207 §4). Whatever arrived in
   * plaintext after that reply is discarded: it could only be injected (RFC 3207 §4.2, CVE-2011-0411).
   * `beforeHandshake` sees the TLS socket right after tls.connect (to wrap how it reads the peer).
   */
  startTls(options: tls.ConnectionOptions, timeoutMs: number, beforeHandshake?: (socket: tls.TLSSocket) => void): Promise<tls.TLSSocket> {
    if (this.failure) return Promise.reject(this.failure);
    this.raw.removeAllListeners('data');
    this.raw.removeAllListeners('close');
    this.raw.removeAllListeners('error');
    // The raw socket's errors surface on the TLS socket; this keeps one from going unhandled meanwhile.
    this.raw.on('error', () => undefined);
    this.reader.reset();
    this.replies = [];
    return new Promise((resolve, reject) => {
      const secure = tls.connect({ ...options, socket: this.raw });
      beforeHandshake?.(secure);
      this.socket = secure;
      const finish = (error: SmtpStepError | null): void => {
        clearTimeout(timer);
        secure.removeListener('secureConnect', onSecure);
        secure.removeListener('error', onError);
        secure.removeListener('close', onClose);
        if (error) {
          this.fail(error);
          reject(error);
          return;
        }
        this.listen(secure);
        resolve(secure);
      };
      const onSecure = (): void => finish(null);
      const onError = (error: NodeJS.ErrnoException): void => finish(new SmtpStepError(describeSocketError(error), 'tls', error.code));
      const onClose = (): void => finish(new SmtpStepError('the connection closed during the TLS handshake', 'closed'));
      const timer = setTimeout(() => finish(new SmtpStepError(`no TLS handshake within ${timeoutMs} ms`, 'timeout')), timeoutMs);
      secure.once('secureConnect', onSecure);
      secure.once('error', onError);
      secure.once('close', onClose);
    });
  }

  /** QUIT (RFC 5321 §4.1.1.10), politely but briefly; then both sockets are destroyed. */
  async quit(timeoutMs: number): Promise<void> {
    try {
      if (!this.failure && !this.stalled) await this.command('QUIT', timeoutMs);
    } catch {
      // The server may close without a reply; nothing depends on it.
    } finally {
      this.close();
    }
  }

  /** Ends the conversation: a reply still awaited fails with `reason`; both sockets are destroyed. */
  close(reason = new SmtpStepError('the connection was closed', 'closed')): void {
    this.fail(reason);
    if (this.socket !== this.raw) this.socket.destroy();
    this.raw.destroy();
  }
}
