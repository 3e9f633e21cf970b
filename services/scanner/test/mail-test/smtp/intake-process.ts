import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, selfSignedCert, startServiceProcess, type ServiceProcess } from '@sendwell/testing';
import { waitUntil } from '../../queue/wait.js';

export interface IntakeProcess {
  smtpPort: number;
  /** The certificate its SMTP server offers with STARTTLS (PEM). */
  tlsCert: string;
  stop(): Promise<void>;
}

/**
 * The intake service as it runs in production (`src/main.ts` in a process of its own), on this test's
 * database and queue prefix: its SMTP server stores test messages and queues their analysis on the
 * scan queue, which this test's scanner worker reads. Its own worker is off (nothing of the intake
 * queue is consumed). It offers STARTTLS with a certificate of its own. A process, because the intake
 * package exports no module to start it in this one.
 */
export async function startIntakeProcess(vars: { databaseUrl: string; redisUrl: string; prefix: string; dnsUrl: string; intakeDomain: string }): Promise<IntakeProcess> {
  const smtpPort = await freePort();
  const dir = join(tmpdir(), `sendwell-scanner-${vars.prefix}`);
  mkdirSync(dir, { recursive: true });
  const tls = await selfSignedCert({ hostnames: [vars.intakeDomain] });
  writeFileSync(join(dir, 'intake-cert.pem'), tls.cert);
  writeFileSync(join(dir, 'intake-key.pem'), tls.key);
  const service: ServiceProcess = await startServiceProcess(
    'intake',
    {
      DATABASE_URL: vars.databaseUrl,
      DATABASE_POOL_MAX: '3',
      REDIS_URL: vars.redisUrl,
      QUEUE_PREFIX: vars.prefix,
      DNS_SERVERS: vars.dnsUrl,
      INTAKE_DOMAIN: vars.intakeDomain,
      INTAKE_SMTP_PORT: String(smtpPort),
      INTAKE_WORKER: 'false',
      INTAKE_TLS_CERT_FILE: join(dir, 'intake-cert.pem'),
      INTAKE_TLS_KEY_FILE: join(dir, 'intake-key.pem'),
    },
    dir,
  );
  // /health answers before the SMTP server listens (main.ts starts it next).
  await waitUntil(() => accepts(smtpPort), { timeoutMs: 10_000, what: `the intake's SMTP port ${smtpPort}` });
  return { smtpPort, tlsCert: tls.cert, stop: () => service.stop() };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
