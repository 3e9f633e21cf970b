import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeRecipients } from '../src/email-verify/smtp-probe.js';

/** Raw TCP servers that misbehave in the ways real MX hosts do, against the probe's timeouts. */
const servers: net.Server[] = [];
async function listen(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => { s.close(() => resolve()); })));
});

const probe = (port: number, stepTimeoutMs = 300) =>
  probeRecipients({ host: '127.0.0.1', outbound: { allowLoopback: true }, port, heloDomain: 'verify.test', mailFrom: 'probe@verify.test', recipients: ['a@x.test'], stepTimeoutMs, deadlineMs: stepTimeoutMs * 3 });

describe('probeRecipients', () => {
  it('gives up on a server that accepts the connection but never greets, within the step timeout', async () => {
    const sockets: net.Socket[] = [];
    const port = await listen((socket) => sockets.push(socket));
    const started = Date.now();
    const outcome = await probe(port);
    expect(outcome).toEqual({ ok: false, stage: 'greeting', error: 'no reply within 300 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
    for (const s of sockets) s.destroy();
  });

  it('stops at a refusing greeting (554)', async () => {
    const port = await listen((socket) => socket.end('554 5.7.1 No SMTP service here\r\n'));
    expect(await probe(port)).toMatchObject({ ok: false, stage: 'greeting', reply: { code: 554, text: '5.7.1 No SMTP service here' } });
  });

  it('reads multi-line replies, falls back to HELO when EHLO is refused, and never sends DATA', async () => {
    const commands: string[] = [];
    const port = await listen((socket) => {
      socket.write('220-mx.x.test ESMTP\r\n220 second greeting line\r\n');
      let buffer = '';
      socket.on('data', (chunk) => {
        buffer += chunk.toString();
        let i: number;
        while ((i = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          commands.push(line);
          if (line.startsWith('EHLO')) socket.write('502 5.5.1 EHLO not implemented\r\n');
          else if (line.startsWith('HELO')) socket.write('250 mx.x.test\r\n');
          else if (line.startsWith('MAIL')) socket.write('250 2.1.0 Ok\r\n');
          else if (line.startsWith('RCPT')) socket.write('550-5.1.1 The email account that you tried to reach does not exist.\r\n550 5.1.1 Please check the address.\r\n');
          else if (line === 'QUIT') socket.end('221 Bye\r\n');
        }
      });
    });
    const outcome = await probe(port, 1_000);
    expect(outcome).toEqual({ ok: true, rcpt: [{ code: 550, text: '5.1.1 The email account that you tried to reach does not exist.\n5.1.1 Please check the address.' }] });
    expect(commands).toEqual(['EHLO verify.test', 'HELO verify.test', 'MAIL FROM:<probe@verify.test>', 'RCPT TO:<a@x.test>', 'QUIT']);
  });

  it('reports a refused connection at the connect stage', async () => {
    const port = await listen(() => undefined);
    await new Promise<void>((resolve) => { servers.pop()!.close(() => resolve()); });
    expect(await probe(port)).toEqual({ ok: false, stage: 'connect', error: 'connection refused' });
  });

  it('never connects to an address the outbound guard refuses', async () => {
    let connections = 0;
    const port = await listen((socket) => {
      connections++;
      socket.end('220 mx.x.test ESMTP\r\n');
    });
    const outcome = await probeRecipients({ host: '127.0.0.1', outbound: { allowLoopback: false }, port, heloDomain: 'verify.test', mailFrom: 'probe@verify.test', recipients: ['a@x.test'], stepTimeoutMs: 300, deadlineMs: 900 });
    expect(outcome).toEqual({ ok: false, stage: 'connect', error: 'the mail server is on a private address (loopback)' });
    expect(connections).toBe(0);
  });
});
