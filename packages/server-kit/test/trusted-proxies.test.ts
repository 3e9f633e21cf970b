import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { baseEnvSchema, parseEnv } from '../src/env.js';
import { createLogger } from '../src/logger.js';

/**
 * X-Forwarded-* over real HTTP on loopback: the app listens on 127.0.0.1, and a client binds its
 * end of the connection to 127.0.0.1 (a trusted proxy) or 127.0.0.2 (an untrusted peer).
 */
let listening: App | undefined;
afterEach(() => listening?.close());

async function start(setting: string | undefined): Promise<number> {
  const env = parseEnv('test', baseEnvSchema, { TRUSTED_PROXIES: setting });
  listening = createApp({ logger: createLogger('test', 'silent'), trustedProxies: env.TRUSTED_PROXIES });
  listening.get('/whoami', async (req) => ({ ip: req.ip, protocol: req.protocol, host: req.host }));
  const address = await listening.listen({ host: '127.0.0.1', port: 0 });
  return Number(new URL(address).port);
}

const FORWARDED = { 'x-forwarded-for': '198.51.100.23', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example.com' };

function whoami(port: number, from: string, headers: Record<string, string> = FORWARDED): Promise<{ ip: string; protocol: string; host: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/whoami', localAddress: from, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(JSON.parse(body) as { ip: string; protocol: string; host: string }));
    });
    req.on('error', reject).end();
  });
}

describe('TRUSTED_PROXIES', () => {
  it('believes the forwarding headers of a listed proxy only', async () => {
    const port = await start('127.0.0.1');
    expect(await whoami(port, '127.0.0.1')).toEqual({ ip: '198.51.100.23', protocol: 'https', host: 'app.example.com' });
    expect(await whoami(port, '127.0.0.2')).toEqual({ ip: '127.0.0.2', protocol: 'http', host: `127.0.0.1:${port}` });
  });

  it('reads X-Forwarded-For from the right, so a client cannot prepend an address of its choice', async () => {
    const port = await start('127.0.0.1');
    const chain = { 'x-forwarded-for': '203.0.113.66, 198.51.100.23' };
    expect((await whoami(port, '127.0.0.1', chain)).ip).toBe('198.51.100.23');
  });

  it('trusts loopback alone when unset, and nobody with "none"', async () => {
    let port = await start(undefined);
    expect((await whoami(port, '127.0.0.2')).ip).toBe('198.51.100.23');
    await listening?.close();
    port = await start('none');
    expect(await whoami(port, '127.0.0.1')).toEqual({ ip: '127.0.0.1', protocol: 'http', host: `127.0.0.1:${port}` });
  });

  it('takes CIDRs', async () => {
    const port = await start('10.0.0.0/8, 127.0.0.0/31');
    expect((await whoami(port, '127.0.0.1')).ip).toBe('198.51.100.23');
    expect((await whoami(port, '127.0.0.2')).ip).toBe('127.0.0.2');
  });
});
