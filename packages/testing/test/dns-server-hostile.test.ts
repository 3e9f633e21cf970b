import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../src/index.js';

/**
 * The fixture DNS server reads whatever arrives on its port (issue 24): garbage or a damaged query,
 * over UDP or TCP, is dropped (or answered NOTIMP), never a crash of the test process, and a
 * well-formed question is still answered after it.
 */

let dns: TestDnsServer;
let client: dgram.Socket;

beforeAll(async () => {
  dns = await startDnsServer({ records: { 'example.test': { A: ['192.0.2.1'] } } });
  client = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  client.close();
  await dns.close();
});

const QUERY = dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'example.test' }] });

/** Sends `message` over UDP, then the good query; resolves with the good query's answer. */
function sendThenAsk(message: Buffer): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer to the good query')), 2000);
    const onMessage = (reply: Buffer): void => {
      const packet = dnsPacket.decode(reply);
      if (packet.id !== 7) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(packet);
    };
    client.on('message', onMessage);
    client.send(message, dns.port, dns.host);
    client.send(QUERY, dns.port, dns.host);
  });
}

/** A valid query with a few bytes overwritten: the shapes a parser trips on (counts, lengths, labels). */
const damagedQuery = fc
  .tuple(fc.integer({ min: 0, max: QUERY.length - 1 }), fc.uint8Array({ minLength: 1, maxLength: 6 }))
  .map(([at, bytes]) => {
    const copy = Buffer.from(QUERY);
    copy.set(bytes.subarray(0, copy.length - at), at);
    copy.writeUInt16BE(8, 0);
    return copy;
  });

describe('the fixture DNS server against hostile packets', () => {
  it('drops garbage and damaged queries over UDP and still answers a good one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)), damagedQuery), async (message) => {
        const answer = await sendThenAsk(message);
        expect(answer.answers?.[0]).toMatchObject({ type: 'A', data: '192.0.2.1' });
      }),
      { numRuns: 150 },
    );
  });

  it('closes a TCP connection that sends a damaged message and keeps serving', async () => {
    for (const message of [Buffer.from([0, 3, 1, 2, 3]), Buffer.from([0xff, 0xff, 1]), Buffer.concat([Buffer.from([0, 12]), Buffer.alloc(12, 0xff)])]) {
      const socket = net.connect(dns.port, dns.host);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(message);
      socket.end();
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    }
    expect((await sendThenAsk(Buffer.alloc(0))).answers?.[0]).toMatchObject({ data: '192.0.2.1' });
  });
});
