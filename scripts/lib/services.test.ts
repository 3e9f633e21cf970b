import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitForPort } from './checks.js';
import { INTAKE_SMTP_PORT, SERVICES, intakeSmtpPort, serviceEnv } from './services.js';

describe('the services `pnpm start` runs', () => {
  it('include the intake on 3006, before the gateway, each on its own port', () => {
    const names = SERVICES.map((s) => s.name);
    expect(names).toContain('intake');
    expect(SERVICES.find((s) => s.name === 'intake')?.port).toBe(3006);
    expect(names.at(-1)).toBe('gateway');
    expect(new Set(SERVICES.map((s) => s.port)).size).toBe(SERVICES.length);
  });

  it('give each service its PORT, whatever PORT the shell exported', () => {
    for (const { name, port } of SERVICES) expect(serviceEnv(name, { PORT: '8080', KEEP: 'yes' })).toMatchObject({ PORT: String(port), KEEP: 'yes' });
  });

  it('give the gateway every upstream, the intake included, and no other service those URLs', () => {
    const gateway = serviceEnv('gateway', { INTAKE_URL: 'http://elsewhere:1' });
    expect(gateway).toMatchObject({
      AUTH_URL: 'http://127.0.0.1:3001',
      DOMAINS_URL: 'http://127.0.0.1:3002',
      BILLING_URL: 'http://127.0.0.1:3003',
      REPORTS_URL: 'http://127.0.0.1:3004',
      SCANNER_URL: 'http://127.0.0.1:3005',
      INTAKE_URL: 'http://127.0.0.1:3006',
    });
    expect(serviceEnv('intake', {}).INTAKE_URL).toBeUndefined();
  });

  it('read the SMTP port from INTAKE_SMTP_PORT, 2500 by default, refusing a bad one', () => {
    expect(INTAKE_SMTP_PORT).toBe(2500);
    expect(intakeSmtpPort({})).toBe(2500);
    expect(intakeSmtpPort({ INTAKE_SMTP_PORT: '' })).toBe(2500);
    expect(intakeSmtpPort({ INTAKE_SMTP_PORT: '2525' })).toBe(2525);
    expect(() => intakeSmtpPort({ INTAKE_SMTP_PORT: '25x' })).toThrow(/INTAKE_SMTP_PORT is 25x/);
    expect(() => intakeSmtpPort({ INTAKE_SMTP_PORT: '70000' })).toThrow(/expected a port number/);
  });
});

describe('waitForPort', () => {
  it('answers true once something listens, false when nothing does before the deadline', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await waitForPort(port, { timeoutMs: 2_000 })).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await waitForPort(port, { timeoutMs: 300, intervalMs: 50 })).toBe(false);
    expect(await waitForPort(port, { timeoutMs: 2_000, stillAlive: () => false })).toBe(false);
  });
});
