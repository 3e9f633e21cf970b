import { connect, type Socket } from 'node:net';

/**
 * A plain SMTP client (RFC 5321) for browser tests that deliver a real message to the intake:
 * nodemailer is no dependency of the web app. One message, no STARTTLS, no AUTH.
 */

interface Reply {
  code: number;
  text: string;
}

/** Reads replies off the socket: a reply is complete at its line whose fourth character is a space (§4.2.1). */
function replyReader(socket: Socket) {
  let buffered = '';
  let lines: string[] = [];
  const ready: Reply[] = [];
  const waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  let failure: Error | null = null;
  const settle = () => {
    while (ready.length && waiting.length) waiting.shift()!.resolve(ready.shift()!);
    if (failure) while (waiting.length) waiting.shift()!.reject(failure);
  };
  socket.setEncoding('utf8');
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

export interface SmtpMessage {
  host?: string;
  port: number;
  helo: string;
  mailFrom: string;
  rcptTo: string;
  /** The whole message, headers and body, CRLF line ends. */
  data: string;
}

/** Delivers one message; throws with the server's reply when a step is refused. Answers the final 250 reply's text. */
export async function sendSmtp({ host = '127.0.0.1', port, helo, mailFrom, rcptTo, data }: SmtpMessage): Promise<string> {
  const socket = connect({ host, port });
  socket.setTimeout(30_000, () => socket.destroy(new Error('SMTP timed out')));
  const next = replyReader(socket);
  const step = async (command: string | null, expected: number): Promise<Reply> => {
    if (command !== null) socket.write(`${command}\r\n`);
    const reply = await next();
    if (reply.code !== expected) throw new Error(`SMTP ${command ?? 'greeting'} → ${reply.text}`);
    return reply;
  };
  try {
    await step(null, 220);
    await step(`EHLO ${helo}`, 250);
    await step(`MAIL FROM:<${mailFrom}>`, 250);
    await step(`RCPT TO:<${rcptTo}>`, 250);
    await step('DATA', 354);
    // §4.5.2: a line starting with a dot gets another one.
    const stuffed = data.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    const accepted = await step(`${stuffed}${stuffed.endsWith('\r\n') ? '' : '\r\n'}.`, 250);
    await step('QUIT', 221).catch(() => undefined);
    return accepted.text;
  } finally {
    socket.destroy();
  }
}
