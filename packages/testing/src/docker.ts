import { request } from 'node:http';
import { testEnv } from './env.js';

/** True when a Docker engine answers on its socket (testcontainers would then work). */
export function dockerAvailable(timeoutMs = 1_000): Promise<boolean> {
  const host = testEnv.dockerHost;
  const socketPath = host?.startsWith('unix://') ? host.slice(7) : host ? undefined : '/var/run/docker.sock';
  const target = socketPath ? { socketPath } : (() => {
    const u = new URL(host!.replace(/^tcp:/, 'http:'));
    return { host: u.hostname, port: Number(u.port) };
  })();
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}
