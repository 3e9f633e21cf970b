import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './ports.js';

export interface TestRedisServer {
  url: string;
  /** Stops the server (SIGKILL: nothing it holds is kept). */
  close(): Promise<void>;
}

/**
 * A Redis server of the test's own (`redis-server` on the PATH, the Debian package CI installs), for
 * what must not touch the shared one: its configuration (eviction policy, a memory limit that makes
 * writes fail, a renamed CONFIG command) or its data. `args` are redis-server options.
 */
export async function startRedisServer(args: string[] = []): Promise<TestRedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`redis-server ${args.join(' ')} did not start: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  return {
    url,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
