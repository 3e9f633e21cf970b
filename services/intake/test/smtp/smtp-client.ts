import net from 'node:net';
import tls from 'node:tls';

/** One SMTP reply: its code and its lines' text (after `250-` / `250 `). */
export interface SmtpReply {
  code: number;
  lines: string[];
  /** The whole reply as received, for assertions on the text. */
  text: string;
}

/**
 * A plain SMTP client over a real socket, to see exactly what the server answers at each step
 * (nodemailer folds the codes into errors). Replies are read in order; STARTTLS swaps the socket.
 */
export class SmtpTestClient {
  private buffer = '';
  private readonly replies: SmtpReply[] = [];
  private waiting: ((reply: SmtpReply) => void) | null = null;
  private closedWaiters: (() => void)[] = [];
  closed = false;

  private constructor(private socket: net.Socket | tls.TLSSocket) {
    this.listen(socket);
  }

  /** Connects and reads the greeting (220, or the refusal that closes the connection). */
  static async connect(port: number, host = '127.0.0.1'): Promise<{ client: SmtpTestClient; greeting: SmtpReply }> {
    const socket = net.connect(port, host);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new SmtpTestClient(socket);
    return { client, greeting: await client.read() };
  }

  private listen(socket: net.Socket | tls.TLSSocket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (socket !== this.socket) return;
      this.closed = true;
      for (const waiter of this.closedWaiters.splice(0)) waiter();
    });
  }

  private onData(chunk: string) {
    this.buffer += chunk;
    for (;;) {
      const reply = this.takeReply();
      if (!reply) return;
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = null;
        waiting(reply);
      } else {
        this.replies.push(reply);
      }
    }
  }

  /** The first complete reply in the buffer: lines up to one whose code is followed by a space. */
  private takeReply(): SmtpReply | null {
    const lines: string[] = [];
    let offset = 0;
    for (;;) {
      const end = this.buffer.indexOf('\r\n', offset);
      if (end === -1) return null;
      const line = this.buffer.slice(offset, end);
      offset = end + 2;
      lines.push(line);
      if (line.length < 4 || line[3] === ' ') break;
    }
    const text = this.buffer.slice(0, offset);
    this.buffer = this.buffer.slice(offset);
    return { code: Number(lines[0]!.slice(0, 3)), lines: lines.map((l) => l.slice(4)), text };
  }

  /** The next reply (rejects after `timeoutMs`, or when the server closes first). */
  read(timeoutMs = 5_000): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no SMTP reply')), timeoutMs);
      const onClosed = () => {
        clearTimeout(timer);
        reject(new Error('connection closed without a reply'));
      };
      if (this.closed) return onClosed();
      this.closedWaiters.push(onClosed);
      this.waiting = (reply) => {
        clearTimeout(timer);
        this.closedWaiters = this.closedWaiters.filter((w) => w !== onClosed);
        resolve(reply);
      };
    });
  }

  async command(line: string): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`, 'latin1');
    return this.read();
  }

  /** DATA, then the message (dot-stuffed here, as a sender's MTA does), then the final reply. */
  async data(message: Buffer | string): Promise<{ start: SmtpReply; end?: SmtpReply }> {
    const start = await this.command('DATA');
    if (start.code !== 354) return { start };
    const text = Buffer.isBuffer(message) ? message.toString('latin1') : message;
    const stuffed = text.replace(/^\./gm, '..');
    this.socket.write(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1');
    return { start, end: await this.read() };
  }

  /** STARTTLS and the handshake, trusting `ca`; EHLO must be sent again after it. */
  async startTls(ca: string, servername = 'localhost'): Promise<tls.TLSSocket> {
    const reply = await this.command('STARTTLS');
    if (reply.code !== 220) throw new Error(`STARTTLS refused: ${reply.text}`);
    const plain = this.socket;
    plain.removeAllListeners('data');
    const secure = tls.connect({ socket: plain, ca: [ca], servername });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.socket = secure;
    this.listen(secure);
    return secure;
  }

  /** Resolves once the server has closed the connection. */
  waitClosed(timeoutMs = 5_000): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('connection still open')), timeoutMs);
      this.closedWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async quit(): Promise<void> {
    if (!this.closed) {
      this.socket.write('QUIT\r\n');
      await this.waitClosed().catch(() => undefined);
    }
    this.socket.destroy();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A plausible report message (multipart with a gzip attachment is the reader's business; any RFC 5322 text will do here). */
export function reportMessage(opts: { from?: string; to: string; subject?: string; body?: string }): string {
  return [
    `From: ${opts.from ?? 'noreply-dmarc-support@google.com'}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject ?? 'Report domain: example.com Submitter: google.com Report-ID: <123>'}`,
    'Message-ID: <report-123@google.com>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    opts.body ?? 'A report.\r\n.a line starting with a dot\r\n',
  ].join('\r\n');
}
