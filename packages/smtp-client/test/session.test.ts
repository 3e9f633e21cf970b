import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dialSmtp, pickMailHostAddress } from '../src/dial.js';
import { SmtpStepError } from '../src/session.js';

/** The conversation against raw TCP servers on loopback, which only the test policy lets the guard allow. */
const servers: net.Server[] = [];
async function listen(onConnection: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const allowLoopback = { allowLoopback: true };

describe('dialSmtp and SmtpSession', () => {
  it('reads the greeting, sends commands and quits', async () => {
    const commands: string[] = [];
    const port = await listen((socket) => {
      socket.write('220-mx.test ESMTP\r\n220 ready\r\n');
      socket.on('data', (chunk) => {
        for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
          commands.push(line);
          if (line.startsWith('EHLO')) socket.write('250-mx.test\r\n250 STARTTLS\r\n');
          else if (line === 'QUIT') socket.end('221 bye\r\n');
        }
      });
    });
    const { session } = await dialSmtp({ address: '127.0.0.1', port, outbound: allowLoopback, timeoutMs: 1_000 });
    expect(await session.read(1_000, 'greeting')).toEqual({ code: 220, lines: ['mx.test ESMTP', 'ready'] });
    expect(await session.command('EHLO client.test', 1_000)).toEqual({ code: 250, lines: ['mx.test', 'STARTTLS'] });
    await session.quit(1_000);
    expect(commands).toEqual(['EHLO client.test', 'QUIT']);
  });

  it('times a silent server out, naming what it waited for', async () => {
    const sockets: net.Socket[] = [];
    const port = await listen((socket) => sockets.push(socket));
    const { session } = await dialSmtp({ address: '127.0.0.1', port, outbound: allowLoopback, timeoutMs: 1_000 });
    await expect(session.read(100, 'greeting')).rejects.toThrow('no greeting within 100 ms');
    session.close();
    for (const socket of sockets) socket.destroy();
  });

  it('fails a reply still awaited when the session is closed with a reason', async () => {
    const sockets: net.Socket[] = [];
    const port = await listen((socket) => sockets.push(socket));
    const { session } = await dialSmtp({ address: '127.0.0.1', port, outbound: allowLoopback, timeoutMs: 1_000 });
    const pending = session.read(5_000, 'greeting');
    session.close(new SmtpStepError('gave up', 'timeout'));
    await expect(pending).rejects.toThrow('gave up');
    for (const socket of sockets) socket.destroy();
  });

  it('never connects to an address the outbound guard refuses', async () => {
    let connections = 0;
    const port = await listen((socket) => {
      connections++;
      socket.end('220 mx.test ESMTP\r\n');
    });
    const dialled = dialSmtp({ address: '127.0.0.1', port, outbound: { allowLoopback: false }, timeoutMs: 1_000 });
    await expect(dialled).rejects.toMatchObject({ kind: 'refused', message: 'the mail server is on a private address (loopback)' });
    await expect(dialSmtp({ address: 'localhost', port, outbound: allowLoopback, timeoutMs: 1_000 })).rejects.toMatchObject({ kind: 'refused' });
    expect(connections).toBe(0);
  });
});

describe('pickMailHostAddress', () => {
  const lookup = (addresses: string[], error: string | null = null) => async () => ({ addresses, error });

  it('refuses special-use names before any lookup', async () => {
    let looked = false;
    const result = await pickMailHostAddress('mx.internal', async () => ((looked = true), { addresses: [], error: null }), allowLoopback);
    expect(result).toEqual({ kind: 'refused-name', refused: { address: 'mx.internal', reason: expect.any(String) } });
    expect(looked).toBe(false);
  });

  it('dials the first vetted address, IPv4 first, and lists the refused ones', async () => {
    expect(await pickMailHostAddress('mx.example.com', lookup(['2606:4700:4700::1111', '10.0.0.1', '1.1.1.1']), { allowLoopback: false })).toEqual({
      kind: 'vetted',
      address: '1.1.1.1',
      refused: [{ address: '10.0.0.1', reason: expect.any(String) }],
    });
    expect(await pickMailHostAddress('mx.example.com', lookup(['127.0.0.1']), { allowLoopback: false })).toEqual({
      kind: 'vetted',
      address: null,
      refused: [{ address: '127.0.0.1', reason: 'loopback' }],
    });
    expect(await pickMailHostAddress('mx.example.com', lookup(['::1', '127.0.0.1']), allowLoopback)).toEqual({ kind: 'vetted', address: '127.0.0.1', refused: [] });
  });

  it('tells a failed lookup from a host without addresses', async () => {
    expect(await pickMailHostAddress('mx.example.com', lookup([], 'timed out'), allowLoopback)).toEqual({ kind: 'lookup-failed', error: 'timed out' });
    expect(await pickMailHostAddress('mx.example.com', lookup([]), allowLoopback)).toEqual({ kind: 'no-address' });
  });
});
