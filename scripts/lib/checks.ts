import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import type { DockerEndpoint } from './preflight.js';

/** True when a Docker engine answers `GET /_ping` at the endpoint. */
export async function dockerAnswers(endpoint: DockerEndpoint, timeoutMs = 1_500): Promise<boolean> {
  if (!endpoint) return false;
  if ('socketPath' in endpoint && !existsSync(endpoint.socketPath)) return false;
  return new Promise((resolve) => {
    const req = request({ ...endpoint, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** True when something accepts connections on the port (so a service of ours could not bind it). */
export async function portInUse(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (used: boolean) => {
      socket.destroy();
      resolve(used);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `url` until it answers 2xx, the deadline passes, or `stillAlive()` says to give up. */
export async function waitForHttp(
  url: string,
  { timeoutMs, stillAlive = () => true, intervalMs = 250 }: { timeoutMs: number; stillAlive?: () => boolean; intervalMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillAlive()) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}

/** Polls until something accepts connections on the port (a non-HTTP listener such as the intake's SMTP), as waitForHttp. */
export async function waitForPort(
  port: number,
  { host = '127.0.0.1', timeoutMs, stillAlive = () => true, intervalMs = 250 }: { host?: string; timeoutMs: number; stillAlive?: () => boolean; intervalMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && stillAlive()) {
    if (await portInUse(port, host)) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}

/** A port nothing listens on now, on 127.0.0.1 (the kernel picks it). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
