import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports handed out for a process to listen on later come from below Linux's ephemeral range
 * (32768–60999 by default). A port the OS picks with listen(0) comes from that range, and once
 * released the kernel may give it to any outgoing connection (a Postgres or Redis client of a test
 * running beside) before the service binds it: EADDRINUSE, seen once a CI run. Here only another
 * freePort caller can race for it, one in 12,000 each time.
 */
const FIRST = 20_000;
const LAST = 31_999;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now, outside the ephemeral range; it is released before use. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = randomInt(FIRST, LAST + 1);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST} after 100 tries`);
}
