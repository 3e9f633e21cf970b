/**
 * The peer of figure 2: a bare smtp-server (the intake's own copy of the library, same options where
 * they apply) that takes any recipient and reads each message to the end and discards it. No lookup,
 * no storage, no queue: what SMTP on Node costs by itself. Prints {"port":…} on stdout when listening.
 */
import type { AddressInfo, Server } from 'node:net';
import { createRequire } from 'node:module';

/** The little of smtp-server used here (its types are the intake's dev dependency, not the bench's). */
interface DataStream {
  on(event: 'data' | 'end', listener: () => void): void;
}
type SmtpServer = new (options: Record<string, unknown>) => {
  server: Server;
  listen(port: number, host: string, callback: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  close(callback: () => void): void;
};

// smtp-server is the intake's dependency, not the bench's: resolved from the intake's package.
const require = createRequire(new URL('../../services/intake/package.json', import.meta.url));
const { SMTPServer } = require('smtp-server') as { SMTPServer: SmtpServer };

const options = {
  name: 'bare.bench.test',
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  hideENHANCEDSTATUSCODES: true,
  disableReverseLookup: true,
  size: 10 * 1024 * 1024,
  maxClients: 500,
  logger: false,
  onData(stream: DataStream, _session: unknown, callback: (err: Error | null, message: string) => void) {
    stream.on('data', () => undefined);
    stream.on('end', () => callback(null, '2.0.0 Ok: discarded'));
  },
};
const server = new SMTPServer(options);
server.on('error', () => undefined);
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.server.address() as AddressInfo).port })}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
