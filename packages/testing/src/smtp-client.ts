import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/**
 * A plain SMTP client (RFC 5321) that delivers one message to the intake from a loopback address, as
 * a sender's mail server would: STARTTLS when given the server's certificate, no AUTH. The scanner's
 * SMTP matrix and the browser tests send their test messages with it (nodemailer is a dependency of
 * neither, and a test wants the conversation under its control: the client address, TLS or not).
 */

interface Reply {
  code: number;
  text: string;
}

/** Reads replies off the socket: a reply is complete at its line whose fourth character is a space (§4.2.1). */
function replyReader(socket: Socket): () => Promise<Reply> {
  let buffered = '';
  let lines: string[] = [];
  const ready: Reply[] = [];
  const waiting: Array<{ resolve: (reply: Reply) => void; reject: (error: Error) => void }> = [];
  let failure: Error | null = null;
  const settle = () => {
    while (ready.length > 0 && waiting.length > 0) waiting.shift()!.resolve(ready.shift()!);
    if (failure) while (waiting.length > 0) waiting.shift()!.reject(failure);
  };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      lines.push(line);
      if (line.length < 4 || line[3] === ' ') {
        ready.push({ code: Number(line.slice(0, 3)), text: lines.join('\n') });
        lines = [];
      }
    }
    settle();
  });
  const fail = (error: Error) => {
    failure ??= error;
    settle();
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('SMTP connection closed')));
  return () =>
    new Promise<Reply>((resolve, reject) => {
      waiting.push({ resolve, reject });
      settle();
    });
}

export interface SmtpDelivery {
  port: number;
  /** The client's address on loopback (127.0.0.1 unless given): what SPF and the connection checks see. */
  localAddress?: string;
  helo: string;
  mailFrom: string;
  rcptTo: string;
  /** The whole message: bytes as they are, or text (UTF-8, line ends made CRLF). */
  message: Buffer | string;
  /** The server's certificate (PEM), trusted for STARTTLS; without it the message goes in plain text. */
  tlsCert?: string;
}

/** Delivers one message; throws with the server's reply when a step is refused, else answers the final reply. */
export async function sendSmtp({ port, localAddress = '127.0.0.1', helo, mailFrom, rcptTo, message, tlsCert }: SmtpDelivery): Promise<string> {
  let socket: Socket = connect({ host: '127.0.0.1', port, localAddress });
  // Generous: on CI the intake shares two cores with every other package's tests.
  socket.setTimeout(30_000, () => socket.destroy(new Error('SMTP timed out')));
  let next = replyReader(socket);
  const step = async (command: string | null, expected: number): Promise<Reply> => {
    if (command !== null) socket.write(`${command}\r\n`, 'latin1');
    const reply = await next();
    if (reply.code !== expected) throw new Error(`SMTP ${command?.slice(0, 40) ?? 'greeting'} → ${reply.text}`);
    return reply;
  };
  try {
    await step(null, 220);
    await step(`EHLO ${helo}`, 250);
    if (tlsCert !== undefined) {
      await step('STARTTLS', 220);
      const secure = connectTls({ socket, ca: tlsCert, checkServerIdentity: () => undefined });
      await new Promise<void>((resolve, reject) => secure.once('secureConnect', resolve).once('error', reject));
      socket = secure;
      next = replyReader(socket);
      // §4.2 of RFC 3207: the session starts again.
      await step(`EHLO ${helo}`, 250);
    }
    await step(`MAIL FROM:<${mailFrom}>`, 250);
    await step(`RCPT TO:<${rcptTo}>`, 250);
    await step('DATA', 354);
    // §4.5.2: a line starting with a dot gets another one.
    const bytes = typeof message === 'string' ? Buffer.from(message.replace(/\r?\n/g, '\r\n'), 'utf8') : message;
    const text = bytes.toString('latin1');
    const stuffed = text.replace(/^\./gm, '..');
    const accepted = await step(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.`, 250);
    await step('QUIT', 221).catch(() => undefined);
    return accepted.text;
  } finally {
    socket.destroy();
  }
}
