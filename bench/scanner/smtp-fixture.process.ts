/**
 * Child process: the MX hosts of the benchmark's world, one SMTP listener on 0.0.0.0 (so every
 * 127/8 address reaches it) that answers as the host whose address was connected to: its name in
 * the 220 greeting and the EHLO reply, STARTTLS (RFC 3207) with its certificate, or no STARTTLS for
 * the hosts that offer none. It accepts no mail; the scanner's probe sends none (greeting, EHLO,
 * STARTTLS, EHLO, QUIT).
 *
 * Not @sendwell/testing's startMxServer: that one listens on 127.0.0.1 only, with one name and one
 * certificate, and a thousand of them would be a thousand listeners on as many ports, where the
 * checks dial one port (`smtpPort`) on each host's own address.
 *
 * Receives `{ certificates, hosts }` over IPC; reports `{ type: 'ready', port }`, and answers
 * `{ type: 'stats' }` with the connections and TLS sessions so far.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { SmtpHostEntry } from './fixture-certs.js';

interface Setup {
  certificates: Record<string, { cert: string; key: string }>;
  hosts: SmtpHostEntry[];
}

/** A connection idle this long is dropped: a probe that stalls must not hold a socket for the whole run. */
const IDLE_MS = 30_000;
const MAX_LINE = 4096;

const setup = await new Promise<Setup>((resolve) => process.once('message', (message: Setup) => resolve(message)));
const contexts = new Map(Object.entries(setup.certificates).map(([group, pair]) => [group, tls.createSecureContext({ cert: pair.cert, key: pair.key })]));
const hosts = new Map(setup.hosts.map((host) => [host.address, { name: host.name, context: host.certificate === null ? null : (contexts.get(host.certificate) ?? null) }]));

let connections = 0;
let tlsSessions = 0;
let unknownAddress = 0;

function ehloReply(name: string, client: string, secure: boolean, starttls: boolean): string {
  const lines = [`${name} at your service, [${client}]`, 'SIZE 52428800', '8BITMIME', 'PIPELINING', 'ENHANCEDSTATUSCODES', 'SMTPUTF8', 'CHUNKING'];
  if (starttls && !secure) lines.splice(4, 0, 'STARTTLS');
  return lines.map((line, index) => `250${index === lines.length - 1 ? ' ' : '-'}${line}`).join('\r\n');
}

/** One SMTP session on `socket` (plain, then TLS after STARTTLS); `name` and `context` are the host's. */
function serve(raw: net.Socket): void {
  connections++;
  const local = raw.localAddress?.replace(/^::ffff:/, '') ?? '';
  const host = hosts.get(local);
  if (!host) unknownAddress++;
  const name = host?.name ?? 'mx.unknown.bench.example';
  const context = host?.context ?? null;
  let socket: net.Socket | tls.TLSSocket = raw;
  let secure = false;
  let buffer = '';
  raw.setTimeout(IDLE_MS, () => raw.destroy());
  raw.on('error', () => undefined);

  const write = (reply: string): void => {
    if (!socket.destroyed) socket.write(`${reply}\r\n`);
  };

  const onData = (chunk: string): void => {
    buffer += chunk;
    if (buffer.length > MAX_LINE * 4) {
      write('500 5.5.2 Line too long');
      socket.destroy();
      return;
    }
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (command(line) === 'upgraded') return;
      newline = buffer.indexOf('\n');
    }
  };

  /** Answers one command line; 'upgraded' when the session moved to TLS (the rest of the plaintext is dropped, RFC 3207 §4.2). */
  const command = (line: string): 'upgraded' | void => {
    const verb = (line.split(' ')[0] ?? '').toUpperCase();
    switch (verb) {
      case 'EHLO':
        return write(ehloReply(name, raw.remoteAddress ?? '', secure, context !== null));
      case 'HELO':
        return write(`250 ${name}`);
      case 'STARTTLS':
        if (context === null || secure) return write('502 5.5.1 STARTTLS not available');
        write('220 2.0.0 Ready to start TLS');
        upgrade(context);
        return 'upgraded';
      case 'NOOP':
      case 'RSET':
        return write('250 2.0.0 OK');
      case 'QUIT':
        write(`221 2.0.0 ${name} closing connection`);
        socket.end();
        return;
      case 'MAIL':
      case 'RCPT':
      case 'DATA':
        return write('550 5.7.1 This fixture accepts no mail');
      default:
        return write('502 5.5.2 Command not recognised');
    }
  };

  const upgrade = (secureContext: tls.SecureContext): void => {
    raw.removeListener('data', onData);
    buffer = '';
    const tlsSocket = new tls.TLSSocket(raw, { isServer: true, secureContext });
    socket = tlsSocket;
    tlsSocket.setEncoding('latin1');
    tlsSocket.on('error', () => raw.destroy());
    tlsSocket.once('secure', () => {
      tlsSessions++;
      secure = true;
    });
    tlsSocket.on('data', onData);
  };

  raw.setEncoding('latin1');
  raw.on('data', onData);
  write(`220 ${name} ESMTP Sendwell bench fixture`);
}

const server = net.createServer(serve);
server.on('error', (error) => {
  console.error(`smtp fixture: ${error.message}`);
  process.exit(1);
});
// 0.0.0.0: a connection to any 127/8 address arrives here, with the address dialled as localAddress.
server.listen({ port: 0, host: '0.0.0.0', backlog: 4096 }, () => {
  process.send?.({ type: 'ready', port: (server.address() as net.AddressInfo).port, hosts: hosts.size, certificates: contexts.size });
});
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', connections, tlsSessions, unknownAddress });
});
process.on('disconnect', () => {
  server.close(() => process.exit(0));
  // A probe still connected must not keep the fixture alive after the benchmark.
  setTimeout(() => process.exit(0), 1_000).unref();
});
