/**
 * The SMTP client of figures 2 and 3, in a process of its own: `connections` plain sockets, each
 * sending its share of the messages one transaction at a time (EHLO once, then MAIL, RCPT, DATA, the
 * message, the final dot, and the reply awaited before the next one), as a receiver's MTA delivers.
 * The messages are one file of concatenated bytes with an index of recipients and lengths.
 * Prints one JSON line: accepted, refused (by reply code), wall and client CPU.
 *
 *   node --import tsx smtp-load.process.ts <port> <connections> <messages.bin> <index.json>
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

const [port, connections, binPath, indexPath] = process.argv.slice(2) as [string, string, string, string];
const bin = readFileSync(binPath);
const index = JSON.parse(readFileSync(indexPath, 'utf8')) as Array<{ rcpt: string; offset: number; length: number }>;

class Conn {
  private buffer = '';
  private waiting: { resolve: (line: { code: number; text: string }) => void; reject: (err: Error) => void } | null = null;
  private readonly queued: Array<{ code: number; text: string }> = [];
  constructor(readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('close', () => this.waiting?.reject(new Error('connection closed')));
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (;;) {
        const end = this.buffer.indexOf('\r\n');
        if (end === -1) return;
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (line[3] === '-') continue;
        const reply = { code: Number(line.slice(0, 3)), text: line };
        if (this.waiting) {
          const w = this.waiting;
          this.waiting = null;
          w.resolve(reply);
        } else this.queued.push(reply);
      }
    });
  }
  read(): Promise<{ code: number; text: string }> {
    const q = this.queued.shift();
    if (q) return Promise.resolve(q);
    if (this.socket.destroyed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
  async command(line: string | Buffer): Promise<{ code: number; text: string }> {
    this.socket.write(line);
    return this.read();
  }
}

const codes: Record<string, number> = {};
let accepted = 0;
let next = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: Number(connections) }, async (_, n) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('error', () => undefined);
    const c = new Conn(socket);
    if ((await c.read()).code !== 220) throw new Error('no greeting');
    if ((await c.command(`EHLO client${n}.bench.test\r\n`)).code !== 250) throw new Error('EHLO refused');
    while (next < index.length) {
      const m = index[next++]!;
      const steps = [`MAIL FROM:<noreply-dmarc-support@reporter.bench.test> SIZE=${m.length}\r\n`, `RCPT TO:<${m.rcpt}>\r\n`, 'DATA\r\n'];
      let reply = { code: 0, text: '' };
      for (const step of steps) {
        reply = await c.command(step);
        if (reply.code >= 400) break;
      }
      if (reply.code === 354) {
        socket.write(bin.subarray(m.offset, m.offset + m.length));
        reply = await c.command('.\r\n'); // every message ends with CRLF
      } else if (reply.code >= 400) {
        await c.command('RSET\r\n');
      }
      codes[reply.code] = (codes[reply.code] ?? 0) + 1;
      if (reply.code === 250) accepted++;
      else if (reply.code === 421) break;
    }
    await c.command('QUIT\r\n').catch(() => undefined);
    socket.end();
  }),
);
const cpu = process.cpuUsage(c0);
process.stdout.write(`${JSON.stringify({ messages: index.length, accepted, codes, wallMs: performance.now() - t0, clientCpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
