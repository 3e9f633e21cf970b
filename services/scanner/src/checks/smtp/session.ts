import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { describeSocketError } from '@sendwell/server-kit';
import { convertLeafOnce } from '../tls-peer.js';
import { ReplyReader, type SmtpReply } from './reply-reader.js';

/**
 * A minimal SMTP client conversation (RFC 5321 §4.2 replies, RFC 3207 STARTTLS) over one socket that
 * STARTTLS swaps for a TLS socket. Every wait has its own timeout; close() destroys both sockets.
 */

/** Why a step failed: the connection (refused, timed out, closed), or what the server sent. */
export class SmtpStepError extends Error {
  override name = 'SmtpStepError';
  constructor(
    message: string,
    readonly kind: 'timeout' | 'closed' | 'socket' | 'protocol' | 'tls',
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The client speaks one command at a time, so more replies than this waiting unread is a server talking to itself. */
const MAX_UNREAD_REPLIES = 16;

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

  private constructor(socket: net.Socket) {
    this.raw = socket;
    this.socket = socket;
    this.listen(socket);
  }

  /** Opens a TCP connection to `address:port`; resolves with the session and the time of the connect event. */
  static connect(address: string, port: number, timeoutMs: number): Promise<{ session: SmtpSession; connectedAt: number }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: address, port });
      const fail = (error: SmtpStepError): void => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const timer = setTimeout(() => fail(new SmtpStepError(`no TCP connection within ${timeoutMs} ms`, 'timeout')), timeoutMs);
      socket.once('error', (error: NodeJS.ErrnoException) => fail(new SmtpStepError(describeSocketError(error), 'socket', error.code)));
      socket.once('connect', () => {
        const connectedAt = performance.now();
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve({ session: new SmtpSession(socket), connectedAt });
      });
    });
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

  /** The next reply, within `timeoutMs`. */
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

  /** Sends one command line and reads its reply. */
  async command(line: string, timeoutMs: number): Promise<SmtpReply> {
    if (this.failure) throw this.failure;
    this.socket.write(`${line}\r\n`);
    return this.read(timeoutMs, `reply to ${line.split(' ')[0]}`);
  }

  /**
   * Upgrades the connection after the server's 220 to STARTTLS (RFC 3207 §4). Whatever arrived in
   * plaintext after that reply is discarded: it could only be injected (RFC 3207 §4.2, CVE-2011-0411).
   */
  startTls(options: tls.ConnectionOptions, timeoutMs: number): Promise<tls.TLSSocket> {
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
      // The probe reads the leaf (and DANE the chain, explicitly): Node's own chain conversion is skipped.
      convertLeafOnce(secure);
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

  close(): void {
    this.failure ??= new SmtpStepError('the connection was closed', 'closed');
    if (this.socket !== this.raw) this.socket.destroy();
    this.raw.destroy();
  }
}
