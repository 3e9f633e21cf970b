import type { AddressInfo } from 'node:net';
import type tls from 'node:tls';
import { SMTPServer } from 'smtp-server';
import type { TestCertificate } from './tls.js';

/**
 * A receiving mail server (an MX host) on loopback for the scanner's SMTP transport check: a real
 * SMTP server that greets, answers EHLO and, when given a certificate, offers STARTTLS (RFC 3207).
 * It accepts no mail (the probe never sends any) and records the EHLO names clients introduce
 * themselves with.
 */

export interface MxServerOptions {
  /** Certificate and key served after STARTTLS; without one STARTTLS is neither advertised nor accepted. */
  certificate?: TestCertificate;
  /** Chain certificates (PEM) sent after the leaf. */
  chain?: string | string[];
  /** The host name in the 220 greeting and the EHLO reply (RFC 5321 §4.2); default "mx.fixture.test". */
  name?: string;
  /** Milliseconds between the connection and the 220 greeting (a slow or tarpitting server). */
  greetingDelayMs?: number;
  /** TLS versions the server accepts after STARTTLS (smtp-server's default minimum is TLSv1). */
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
  /** OpenSSL cipher list, e.g. "DEFAULT:@SECLEVEL=0" to allow TLS 1.0/1.1 on OpenSSL 3. */
  ciphers?: string;
}

export interface TestMxServer {
  host: '127.0.0.1';
  port: number;
  /** Every EHLO/HELO argument received, in order (one before and one after STARTTLS for a full probe). */
  readonly ehloNames: string[];
  /** Connections accepted so far. */
  readonly connections: number;
  /** STARTTLS handshakes completed. */
  readonly tlsSessions: number;
  close(): Promise<void>;
}

/** smtp-server logs each client command as debug({ tnx: 'command', command }, 'C:', line): the one place every EHLO passes. */
function commandRecorder(onCommand: (command: string, line: string) => void) {
  const ignore = (): void => undefined;
  return {
    level: ignore,
    trace: ignore,
    info: ignore,
    warn: ignore,
    error: ignore,
    fatal: ignore,
    debug(entry: unknown, _label?: unknown, line?: unknown): void {
      const fields = entry as { tnx?: unknown; command?: unknown } | null;
      if (fields?.tnx === 'command' && typeof fields.command === 'string' && typeof line === 'string') onCommand(fields.command.toUpperCase(), line);
    },
  };
}

/** Starts an MX fixture on 127.0.0.1 (random port). */
export async function startMxServer(options: MxServerOptions = {}): Promise<TestMxServer> {
  const ehloNames: string[] = [];
  let connections = 0;
  let tlsSessions = 0;
  const certificate = options.certificate;
  const chain = options.chain === undefined ? [] : Array.isArray(options.chain) ? options.chain : [options.chain];
  const server = new SMTPServer({
    name: options.name ?? 'mx.fixture.test',
    authOptional: true,
    disableReverseLookup: true,
    closeTimeout: 500,
    ...(certificate
      ? {
          cert: [certificate.cert, ...chain].join('\n'),
          key: certificate.key,
          ...(options.minVersion ? { minVersion: options.minVersion } : {}),
          ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
          ...(options.ciphers ? { ciphers: options.ciphers } : {}),
        }
      : { hideSTARTTLS: true, disabledCommands: ['STARTTLS'] }),
    logger: commandRecorder((command, line) => {
      if (command === 'EHLO' || command === 'HELO') ehloNames.push(line.trim().split(/\s+/)[1] ?? '');
    }),
    onConnect(_session, callback) {
      connections += 1;
      if (options.greetingDelayMs) setTimeout(() => callback(), options.greetingDelayMs);
      else callback();
    },
    onSecure(_socket, _session, callback) {
      tlsSessions += 1;
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback(Object.assign(new Error('This fixture accepts no mail'), { responseCode: 550 })));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    ehloNames,
    get connections() {
      return connections;
    },
    get tlsSessions() {
      return tlsSessions;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
